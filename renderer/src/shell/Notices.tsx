import { useEffect, useRef, type Dispatch } from 'react';
import { useT } from '../i18n/index.js';
import type { Action, Notice } from '../store.js';
import { STORAGE_TITLE } from '../store.js';
import { useNow } from '../useNow.js';

/** How long an agent's notice stays in the list (History keeps it); the bridge's own stay until dismissed. */
export const NOTICE_MS = 60_000;

/** Whether a notice is still for the list at wall time `now`. */
export const current = (notice: Notice, now: number): boolean =>
  notice.agentId === 'bridge' || now - (notice.at ?? now) < NOTICE_MS;

/** A notice's title in the human's language (the bridge's storage notice has words of its own). */
export function noticeTitle(notice: Notice, storageTitle: string): string {
  if (notice.agentId === 'bridge' && notice.title === STORAGE_TITLE) return storageTitle;
  return notice.title ?? notice.agentId;
}

/**
 * The agents' user_notify lines. They never cover what needs a hand: the top bar has their count (NoticesButton),
 * and the list opens only when the human asks for it. Each is said once in a polite live region as it arrives, and
 * leaves the list after a minute (History keeps it).
 */
export function Notices(props: { notices: Notice[]; open: boolean; onClose(): void; dispatch: Dispatch<Action> }) {
  const { notices, open, onClose, dispatch } = props;
  const words = useT().notices;
  useNow(
    5000,
    notices.some((n) => n.agentId !== 'bridge'),
  );
  const now = Date.now();
  const shown = notices.filter((n) => current(n, now));
  const expired = notices.filter((n) => !current(n, now)).map((n) => n.id);
  useEffect(() => {
    for (const id of expired) dispatch({ type: 'dismiss', id });
  }, [expired.join(','), dispatch]);

  // said once each, as it arrives (not the ones a reload brings back)
  const said = useRef(new Set(notices.map((n) => n.id)));
  const newest = shown.filter((n) => !said.current.has(n.id));
  const speech = newest.map((n) => words.said(n.agentId, noticeTitle(n, words.storageTitle), n.body)).join(' ');
  useEffect(() => {
    for (const n of newest) said.current.add(n.id);
  });
  const lastSaid = useRef('');
  if (speech) lastSaid.current = speech;

  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) panel.current?.focus();
  }, [open]);
  return (
    <>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {lastSaid.current}
      </p>
      {open && (
        <div
          className="notices-panel"
          role="region"
          aria-label={words.label}
          tabIndex={-1}
          ref={panel}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.stopPropagation();
            onClose();
          }}
        >
          <ul className="notices" aria-label={words.label}>
            {shown.map((n) => (
              <li key={n.id} className="notice">
                <span className="notice-body">
                  <strong>{noticeTitle(n, words.storageTitle)}</strong>
                  {n.title && <span className="muted"> · {n.agentId}</span>}
                  <span className="notice-text">{n.body}</span>
                </span>
                <button
                  type="button"
                  className="button ghost small"
                  aria-label={words.dismiss(noticeTitle(n, words.storageTitle))}
                  onClick={() => dispatch({ type: 'dismiss', id: n.id })}
                >
                  <span aria-hidden>✕</span>
                </button>
              </li>
            ))}
          </ul>
          <p className="muted notices-help">{words.expires}</p>
          <div className="card-actions">
            {shown.length > 0 && (
              <button
                type="button"
                className="button ghost small"
                onClick={() => shown.forEach((n) => dispatch({ type: 'dismiss', id: n.id }))}
              >
                {words.dismissAll}
              </button>
            )}
            <button type="button" className="button small" onClick={onClose}>
              {words.close}
            </button>
          </div>
        </div>
      )}
    </>
  );
}
