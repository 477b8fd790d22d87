import { useEffect, useRef } from 'react';
import type { RejectReason } from '../../../bridge/protocol/index.js';
import type { Draft } from '../drafts.js';
import { useT } from '../i18n/index.js';
import { QuickButton } from '../quick/QuickButton.js';
import { REJECT_PRESETS } from './options.js';

interface RejectPanelProps {
  draft: Draft;
  update(change: Partial<Draft>): void;
  /** sends the reject; with a reason, that preset (Enter on a focused preset sends the preset in the ring) */
  onSend(reason?: RejectReason): void;
  onCancel(): void;
  /** opens the quick reasons for the reason box */
  onQuick(): void;
  busy: boolean;
}

/**
 * Reject with a reason of the human's own and/or a preset. The reason box takes the focus when the panel opens
 * (Esc), so what the human types next is the reason and only that: no letter or digit there is a shortcut.
 * ↓ (or Tab) moves to the presets, where number keys pick one and Enter on the preset that has the focus sends
 * that preset, so what is ringed is what goes.
 */
export function RejectPanel({ draft, update, onSend, onCancel, onQuick, busy }: RejectPanelProps) {
  const words = useT().reject;
  const reason = useRef<HTMLInputElement>(null);
  const presets = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // the panel opens on Esc: keep the keyboard inside it, in the box the next letters belong to
    const card = reason.current?.closest('.card');
    if (card && (document.activeElement === document.body || card.contains(document.activeElement)))
      reason.current?.focus();
  }, []);
  return (
    <div className="reject" role="group" aria-label={words.group}>
      <input
        ref={reason}
        className="field"
        aria-label={words.field}
        data-field="reason"
        placeholder={words.placeholder}
        value={draft.reasonText}
        onChange={(e) => update({ reasonText: e.target.value })}
        onKeyDown={(event) => {
          if (event.key !== 'ArrowDown') return;
          event.preventDefault();
          presets.current?.querySelector<HTMLElement>('button')?.focus();
        }}
      />
      <div
        className="reject-presets"
        ref={presets}
        onKeyDown={(event) => {
          const buttons = Array.from(presets.current?.querySelectorAll<HTMLElement>('button') ?? []);
          const at = buttons.indexOf(event.target as HTMLElement);
          const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1 }[event.key];
          if (event.key === 'ArrowUp' || (event.key === 'ArrowLeft' && at === 0)) {
            event.preventDefault();
            reason.current?.focus();
          } else if (step !== undefined && at >= 0) {
            event.preventDefault();
            buttons[Math.min(buttons.length - 1, Math.max(0, at + step))]?.focus();
          }
        }}
      >
        {REJECT_PRESETS.map((preset, i) => (
          <button
            key={preset}
            type="button"
            className="chip-button"
            data-action
            aria-pressed={draft.reason === preset}
            onClick={() => update({ reason: draft.reason === preset ? undefined : preset })}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              event.stopPropagation();
              onSend(preset);
            }}
          >
            <kbd aria-hidden>{i + 1}</kbd> {words.presets[preset]}
          </button>
        ))}
      </div>
      <div className="card-actions">
        <QuickButton onClick={onQuick} />
        <button type="button" className="button ghost" data-action onClick={onCancel}>
          {words.back} <kbd aria-hidden>Esc</kbd>
        </button>
        <button type="button" className="button danger" data-action disabled={busy} onClick={() => onSend()}>
          {words.send} <kbd aria-hidden>↵</kbd>
        </button>
      </div>
    </div>
  );
}
