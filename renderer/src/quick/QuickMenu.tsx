import { useEffect, useRef, useState } from 'react';
import { useT } from '../i18n/index.js';
import { digitOf } from '../keys.js';
import { useQuickBook } from './context.js';
import type { QuickKind } from './useQuickReplies.js';

interface QuickMenuProps {
  kind: QuickKind;
  /** what the field holds now: it can be saved as a new quick reply */
  text: string;
  onPick(text: string): void;
  onClose(): void;
}

/**
 * The quick replies of one kind, most used first, numbered: 1–9 or ↑ ↓ Enter put one into the field, Esc
 * closes. What the field holds can be saved as a new one. The menu takes the keyboard while it is open, so
 * none of these keys reaches the card.
 */
export function QuickMenu({ kind, text, onPick, onClose }: QuickMenuProps) {
  const words = useT().quick;
  const book = useQuickBook();
  const replies = book.of(kind);
  const list = useRef<HTMLDivElement>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    (list.current?.querySelector<HTMLElement>('[role="option"]') ?? list.current)?.focus();
  }, []);

  const pick = (index: number) => {
    const reply = replies[index];
    if (!reply) return;
    onPick(reply.text);
    void book.used(reply.id).catch(() => undefined);
  };

  return (
    <div
      className="quick-menu"
      role="dialog"
      aria-label={words.menu}
      tabIndex={-1}
      ref={list}
      onKeyDown={(event) => {
        event.stopPropagation();
        const options = Array.from(list.current?.querySelectorAll<HTMLElement>('[role="option"]') ?? []);
        const at = options.indexOf(document.activeElement as HTMLElement);
        const digit = digitOf(event);
        if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
        } else if (digit !== undefined && digit > 0 && !(event.target instanceof HTMLInputElement)) {
          event.preventDefault();
          pick(digit - 1);
        } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          event.preventDefault();
          const step = event.key === 'ArrowDown' ? 1 : -1;
          options[Math.min(options.length - 1, Math.max(0, at + step))]?.focus();
        } else if (event.key === 'Enter' && at >= 0) {
          event.preventDefault();
          pick(at);
        }
      }}
    >
      <p className="quick-title">
        {kind === 'reason' ? words.reasons : words.answers} <span className="muted">{words.hint}</span>
      </p>
      {replies.length === 0 ? (
        <p className="muted">{words.none}</p>
      ) : (
        <ul role="listbox" aria-label={words.menu}>
          {replies.map((reply, i) => (
            <li
              key={reply.id}
              role="option"
              aria-selected={false}
              tabIndex={-1}
              className="quick-option"
              onClick={() => pick(i)}
            >
              {i < 9 && <kbd aria-hidden>{i + 1}</kbd>} <span className="quick-text">{reply.text}</span>
              <span className="muted quick-uses">{words.used(reply.uses)}</span>
            </li>
          ))}
        </ul>
      )}
      {book.error && <p className="card-error">{words.unavailable(book.error)}</p>}
      <div className="card-actions">
        <button
          type="button"
          className="button ghost small"
          data-action
          disabled={!text.trim() || saved}
          onClick={() =>
            void book.add(kind, text).then(
              () => {
                setSaved(true);
                // the button goes disabled under the focus: the menu keeps the keyboard (Esc closes it, not the card)
                list.current?.focus();
              },
              () => setSaved(false),
            )
          }
        >
          {saved ? words.saved : words.save}
        </button>
        <button type="button" className="button ghost small" data-action onClick={onClose}>
          {words.done} <kbd aria-hidden>Esc</kbd>
        </button>
      </div>
    </div>
  );
}
