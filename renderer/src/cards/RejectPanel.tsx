import { useEffect, useRef } from 'react';
import type { RejectReason } from '../../../bridge/protocol/index.js';
import type { Draft } from '../drafts.js';
import { REJECT_PRESETS } from './options.js';

interface RejectPanelProps {
  draft: Draft;
  update(change: Partial<Draft>): void;
  /** sends the reject; with a reason, that preset (Enter on a focused preset sends the preset in the ring) */
  onSend(reason?: RejectReason): void;
  onCancel(): void;
  busy: boolean;
}

/**
 * Reject with a preset reason (number keys pick one) and/or a reason of the human's own. The panel itself takes
 * the focus when it opens, so no preset shows a focus ring it would not send; Enter on a preset that has the
 * focus (Tab) sends that preset, so what is ringed is what goes.
 */
export function RejectPanel({ draft, update, onSend, onCancel, busy }: RejectPanelProps) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // the panel opens on Esc: keep the keyboard inside it
    const card = panel.current?.closest('.card');
    if (card && (document.activeElement === document.body || card.contains(document.activeElement)))
      panel.current?.focus();
  }, []);
  return (
    <div className="reject" role="group" aria-label="reject" tabIndex={-1} ref={panel}>
      <div className="reject-presets">
        {REJECT_PRESETS.map((preset, i) => (
          <button
            key={preset.reason}
            type="button"
            className="chip-button"
            data-action
            aria-pressed={draft.reason === preset.reason}
            onClick={() => update({ reason: draft.reason === preset.reason ? undefined : preset.reason })}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              event.stopPropagation();
              onSend(preset.reason);
            }}
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
        <button type="button" className="button danger" data-action disabled={busy} onClick={() => onSend()}>
          Reject <kbd>↵</kbd>
        </button>
      </div>
    </div>
  );
}
