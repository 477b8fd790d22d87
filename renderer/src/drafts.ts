import { useCallback, useState } from 'react';
import type { RejectReason } from '../../bridge/protocol/index.js';

/** What the human has started on a card: kept per askId in sessionStorage, so a reload loses nothing. */
export interface Draft {
  picked: string[];
  text?: string;
  note: string;
  rejecting: boolean;
  reason?: RejectReason;
  reasonText: string;
}

const PREFIX = 'aiti.draft.';
const empty: Draft = { picked: [], note: '', rejecting: false, reasonText: '' };

export function loadDraft(askId: string): Draft {
  try {
    const raw = sessionStorage.getItem(PREFIX + askId);
    return raw ? { ...empty, ...(JSON.parse(raw) as Partial<Draft>) } : empty;
  } catch {
    return empty;
  }
}

export function saveDraft(askId: string, draft: Draft): void {
  try {
    sessionStorage.setItem(PREFIX + askId, JSON.stringify(draft));
  } catch {
    // storage full or disabled: the draft lives on in memory only
  }
}

export function dropDraft(askId: string): void {
  sessionStorage.removeItem(PREFIX + askId);
}

/** Drops the drafts of asks that are no longer open. */
export function pruneDrafts(openAskIds: readonly string[]): void {
  const open = new Set(openAskIds);
  for (let i = sessionStorage.length - 1; i >= 0; i--) {
    const key = sessionStorage.key(i);
    if (key?.startsWith(PREFIX) && !open.has(key.slice(PREFIX.length))) sessionStorage.removeItem(key);
  }
}

export type DraftChange = Partial<Draft> | ((current: Draft) => Partial<Draft>);

/** The draft of one card, bound to its askId for the card's whole life; a change may read the newest draft. */
export function useDraft(askId: string): [Draft, (change: DraftChange) => void] {
  const [draft, setDraft] = useState(() => loadDraft(askId));
  const update = useCallback(
    (change: DraftChange) =>
      setDraft((current) => {
        const next = { ...current, ...(typeof change === 'function' ? change(current) : change) };
        saveDraft(askId, next);
        return next;
      }),
    [askId],
  );
  return [draft, update];
}
