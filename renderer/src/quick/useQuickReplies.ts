import { useCallback, useEffect, useRef, useState } from 'react';
import type { QuickReply } from '../../../bridge/protocol/index.js';
import type { Api } from '../api.js';

export type QuickKind = QuickReply['kind'];

/** The most used first, then the most recently used, then as written. */
export function byUse(replies: readonly QuickReply[]): QuickReply[] {
  return [...replies].sort((a, b) => b.uses - a.uses || (b.lastUsed ?? '').localeCompare(a.lastUsed ?? ''));
}

const newId = () => `q-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export interface QuickReplyBook {
  replies: QuickReply[];
  error?: string | undefined;
  /** the replies of one kind, most used first */
  of(kind: QuickKind): QuickReply[];
  add(kind: QuickKind, text: string): Promise<void>;
  edit(id: string, text: string): Promise<void>;
  remove(id: string): Promise<void>;
  /** counts a use (the list is sorted by it) */
  used(id: string): Promise<void>;
}

/**
 * The human's quick replies, kept by the bridge in its data dir (one list for the desktop app and every
 * browser). Each change is sent whole and shown once the bridge says it is on disk.
 */
export function useQuickReplies(api: Api | undefined): QuickReplyBook {
  const [replies, setReplies] = useState<QuickReply[]>([]);
  const [error, setError] = useState<string>();
  const latest = useRef(replies);
  latest.current = replies;

  useEffect(() => {
    if (!api) return;
    api.quickReplies().then(
      (list) => (setReplies(list.replies), setError(undefined)),
      (e: Error) => setError(e.message),
    );
  }, [api]);

  const save = useCallback(
    async (change: (list: QuickReply[]) => QuickReply[]) => {
      if (!api) return;
      try {
        const saved = await api.saveQuickReplies({ replies: change(latest.current) });
        setReplies(saved.replies);
        setError(undefined);
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
        throw e;
      }
    },
    [api],
  );

  return {
    replies,
    error,
    of: (kind) => byUse(replies.filter((r) => r.kind === kind)),
    add: (kind, text) => save((list) => [...list, { id: newId(), kind, text: text.trim(), uses: 0 }]),
    edit: (id, text) => save((list) => list.map((r) => (r.id === id ? { ...r, text: text.trim() } : r))),
    remove: (id) => save((list) => list.filter((r) => r.id !== id)),
    used: (id) =>
      save((list) =>
        list.map((r) => (r.id === id ? { ...r, uses: r.uses + 1, lastUsed: new Date().toISOString() } : r)),
      ),
  };
}
