/** True when a key press belongs to a text field (typing), not to a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement) return true;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit'].includes(target.type);
  return target instanceof HTMLSelectElement;
}

/** The digit 0–9 a key press stands for, from the main row or the keypad. */
export function digitOf(event: { key: string }): number | undefined {
  return /^[0-9]$/.test(event.key) ? Number(event.key) : undefined;
}
