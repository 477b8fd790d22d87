import { useState } from 'react';
import type { SessionRow } from '../../../bridge/protocol/index.js';
import { useNow } from '../useNow.js';
import { ConnectHelp } from './ConnectHelp.js';
import { ago, shortUrl } from '../time.js';
import { useT } from '../i18n/index.js';

interface PagesPanelProps {
  pages: SessionRow[];
  heldOrigins: string[];
  allow(origin: string): Promise<void>;
  /** false while the window has no bridge: no page's state is known then */
  live?: boolean;
}

/** Connected pages (one entry per page, its frames counted) and the origins held until the human allows them. */
export function PagesPanel({ pages, heldOrigins, allow, live = true }: PagesPanelProps) {
  const words = useT().pages;
  const seen = useT().agents;
  useNow(15_000); // keeps "seen … ago" current
  const [error, setError] = useState<string>();
  const byPage = new Map<string, SessionRow[]>();
  for (const row of pages) byPage.set(row.pageId, [...(byPage.get(row.pageId) ?? []), row]);
  const entries = [...byPage.entries()].map(([pageId, frames]) => {
    const main = frames.find((f) => f.frameId === 'main') ?? frames[0];
    return { pageId, frames, main };
  });

  return (
    <section className="panel side" aria-label={words.label}>
      <h2 className="panel-title">
        {words.title}{' '}
        <span className="muted">
          {live ? words.connected(entries.filter((e) => e.frames.some((f) => f.active)).length) : words.unknown}
        </span>
      </h2>
      {heldOrigins.length > 0 && (
        <ul className="held">
          {heldOrigins.map((origin) => (
            <li key={origin}>
              <span>
                <strong>{origin}</strong>
                {words.waits}
              </span>
              <button
                type="button"
                className="button small primary"
                onClick={() =>
                  allow(origin).then(
                    () => setError(undefined),
                    (e: Error) => setError(e.message),
                  )
                }
              >
                {words.allow}
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && <p className="card-error">{error}</p>}
      {entries.length === 0 ? (
        <p className="empty">{words.empty}</p>
      ) : (
        <ul className="rows">
          {entries.map(({ pageId, frames, main }) =>
            main ? (
              <li key={pageId} className="row static">
                <span
                  className={`dot ${!live ? 'unknown' : main.active ? (main.operable ? 'on' : 'held') : 'off'}`}
                  title={
                    !live
                      ? words.unknown
                      : main.active
                        ? main.operable
                          ? words.state.connected
                          : words.state.held
                        : words.state.disconnected
                  }
                />
                <span className="row-main">
                  <span className="row-title" title={main.url}>
                    {main.title || shortUrl(main.url)}
                  </span>
                  <span className="row-sub">
                    {pageId} · {main.title ? `${shortUrl(main.url)} · ` : ''}
                    {frames.length > 1 ? words.frames(frames.length) : ''}
                    {!live
                      ? seen.reconnecting
                      : main.active
                        ? seen.seen(ago(main.lastSeen))
                        : seen.left(ago(main.lastSeen))}
                  </span>
                  <span className="tags">
                    {main.frameworks.map((f) => (
                      <span key={f} className="tag">
                        {f}
                      </span>
                    ))}
                    {main.legacy && (
                      <span className="tag warn" title={words.legacyTitle}>
                        {words.legacy}
                      </span>
                    )}
                    {!main.operable && <span className="tag warn">{words.held}</span>}
                  </span>
                </span>
              </li>
            ) : null,
          )}
        </ul>
      )}
      <ConnectHelp open={entries.length === 0} />
    </section>
  );
}
