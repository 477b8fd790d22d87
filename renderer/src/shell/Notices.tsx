import type { Dispatch } from 'react';
import { useT } from '../i18n/index.js';
import type { Action, Notice } from '../store.js';

/** The agents' user_notify lines, shown until dismissed. */
export function Notices({ notices, dispatch }: { notices: Notice[]; dispatch: Dispatch<Action> }) {
  const words = useT().notices;
  if (!notices.length) return null;
  return (
    <ul className="notices" aria-label={words.label}>
      {notices.map((n) => (
        <li key={n.id} className="notice">
          <span className="notice-body">
            <strong>{n.title ?? n.agentId}</strong>
            {n.title && <span className="muted"> · {n.agentId}</span>}
            <span className="notice-text">{n.body}</span>
          </span>
          <button
            type="button"
            className="button ghost small"
            aria-label={words.dismiss}
            onClick={() => dispatch({ type: 'dismiss', id: n.id })}
          >
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}
