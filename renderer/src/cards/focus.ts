/** The field a card's keys type into: its answer, else its note (a card without either has none). */
export function cardField(card: Element | null | undefined): HTMLElement | null {
  return card?.querySelector<HTMLElement>('[data-field="answer"], [data-field="note"], [data-field="reason"]') ?? null;
}

/**
 * Ctrl+I: the text field of the card the keys act on (the active one, else the first open card that has a field)
 * takes the focus. False when no card has one (the message box is then the field).
 */
export function focusInput(): boolean {
  const cards = Array.from(document.querySelectorAll<HTMLElement>('.card:not(.ended)[data-ask-id]'));
  const active = cards.find((c) => c.classList.contains('is-active'));
  const field = cardField(active) ?? cards.map(cardField).find((f) => f !== null) ?? null;
  if (!field) return false;
  field.focus();
  return true;
}
