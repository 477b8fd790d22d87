import type { PagesDelta, SessionRow } from '../../bridge/protocol/index.js';

/**
 * Applies a `pages` delta to the rows the window holds: the rows of every page in `upsert` replace that page's
 * rows where they stood (a new page goes last), pages in `gone` leave.
 */
export function applyPagesDelta(rows: SessionRow[], delta: PagesDelta): SessionRow[] {
  const gone = new Set(delta.gone);
  const fresh = new Map<string, SessionRow[]>();
  for (const row of delta.upsert) fresh.set(row.pageId, [...(fresh.get(row.pageId) ?? []), row]);
  const placed = new Set<string>();
  const out: SessionRow[] = [];
  for (const row of rows) {
    if (gone.has(row.pageId)) continue;
    const replacement = fresh.get(row.pageId);
    if (!replacement) out.push(row);
    else if (!placed.has(row.pageId)) {
      placed.add(row.pageId);
      out.push(...replacement);
    }
  }
  for (const [pageId, replacement] of fresh) if (!placed.has(pageId)) out.push(...replacement);
  return out;
}
