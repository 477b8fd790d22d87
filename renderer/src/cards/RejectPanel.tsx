import { useEffect, useRef } from 'react';
import type { Draft } from '../drafts.js';
import { REJECT_PRESETS } from './options.js';

interface RejectPanelProps {
  draft: Draft;
  update(change: Partial<Draft>): void;
  onSend(): void;
  onCancel(): void;
  busy: boolean;
}

/** Reject with a preset reason (number keys pick one) and/or a reason of the human's own. */
export function RejectPanel({ draft, update, onSend, onCancel, busy }: RejectPanelProps) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // the panel opens on Esc: keep the keyboard inside it
    const card = first.current?.closest('.card');
    if (card && (document.activeElement === document.body || card.contains(document.activeElement)))
      first.current?.focus();
  }, []);
  return (
    <div className="reject" role="group" aria-label="reject">
      <div className="reject-presets">
        {REJECT_PRESETS.map((preset, i) => (
          <button
            key={preset.reason}
            ref={i === 0 ? first : undefined}
            type="button"
            className="chip-button"
            aria-pressed={draft.reason === preset.reason}
            onClick={() => update({ reason: draft.reason === preset.reason ? undefined : preset.reason })}
          >
            <kbd>{i + 1}</kbd> {preset.label}
          </button>
        ))}
      </div>
      <input
        className="field"
        aria-label="reason"
        placeholder="Reason in your own words (optional with a preset)"
        value={draft.reasonText}
        onChange={(e) => update({ reasonText: e.target.value })}
      />
      <div className="card-actions">
        <button type="button" className="button ghost" data-action onClick={onCancel}>
          Back <kbd>Esc</kbd>
        </button>
        <button type="button" className="button danger" data-action disabled={busy} onClick={onSend}>
          Reject <kbd>↵</kbd>
        </button>
      </div>
    </div>
  );
}
