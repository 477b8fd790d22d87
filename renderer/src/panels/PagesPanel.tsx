import { useState } from 'react';
import type { SessionRow } from '../../../bridge/protocol/index.js';
import { useNow } from '../useNow.js';
import { ConnectHelp } from './ConnectHelp.js';
import { ago, shortUrl } from '../time.js';

interface PagesPanelProps {
  pages: SessionRow[];
  heldOrigins: string[];
  allow(origin: string): Promise<void>;
}

/** Connected pages (one entry per page, its frames counted) and the origins held until the human allows them. */
export function PagesPanel({ pages, heldOrigins, allow }: PagesPanelProps) {
  useNow(15_000); // keeps "seen … ago" current
  const [error, setError] = useState<string>();
  const byPage = new Map<string, SessionRow[]>();
  for (const row of pages) byPage.set(row.pageId, [...(byPage.get(row.pageId) ?? []), row]);
  const entries = [...byPage.entries()].map(([pageId, frames]) => {
    const main = frames.find((f) => f.frameId === 'main') ?? frames[0];
    return { pageId, frames, main };
  });

  return (
    <section className="panel side" aria-label="pages">
      <h2 className="panel-title">
        Pages <span className="muted">{entries.filter((e) => e.frames.some((f) => f.active)).length} connected</span>
      </h2>
      {heldOrigins.length > 0 && (
        <ul className="held">
          {heldOrigins.map((origin) => (
            <li key={origin}>
              <span>
                <strong>{origin}</strong> waits for your approval
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
                Allow
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && <p className="card-error">{error}</p>}
      {entries.length === 0 ? (
        <p className="empty">No page yet: load the page agent in the app you are building.</p>
      ) : (
        <ul className="rows">
          {entries.map(({ pageId, frames, main }) =>
            main ? (
              <li key={pageId} className="row static">
                <span
                  className={`dot ${main.active ? (main.operable ? 'on' : 'held') : 'off'}`}
                  title={main.active ? (main.operable ? 'connected' : 'held') : 'disconnected'}
                />
                <span className="row-main">
                  <span className="row-title" title={main.url}>
                    {main.title || shortUrl(main.url)}
                  </span>
                  <span className="row-sub">
                    {pageId} · {main.title ? `${shortUrl(main.url)} · ` : ''}
                    {frames.length > 1 ? `${frames.length} frames · ` : ''}
                    {main.active ? `seen ${ago(main.lastSeen)}` : `left ${ago(main.lastSeen)}`}
                  </span>
                  <span className="tags">
                    {main.frameworks.map((f) => (
                      <span key={f} className="tag">
                        {f}
                      </span>
                    ))}
                    {main.legacy && (
                      <span className="tag warn" title="connected without a page secret">
                        legacy
                      </span>
                    )}
                    {!main.operable && <span className="tag warn">held</span>}
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
