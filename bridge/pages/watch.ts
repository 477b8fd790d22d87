import type { LogEntry, NetworkEntry, PageErrorEntry } from '../protocol/index.js';
import type { BridgeContext } from '../context.js';

/** Keeps the ring buffers filled from page events and tells the window when pages come and go. */
export function watchPages(bridge: BridgeContext): void {
  bridge.pageEvents.on((event) => {
    if (event.type === 'navigate' && !event.frameId) {
      const { url, leaving } = event.payload as { url: string; leaving?: boolean };
      if (leaving) bridge.requests.noteDeparture(event.pageId, url);
      return;
    }
    const watch = bridge.buffers.for(event.pageId);
    if (event.type === 'page_log') for (const entry of event.payload as LogEntry[]) watch.logs.push(entry);
    if (event.type === 'page_network') for (const entry of event.payload as NetworkEntry[]) watch.network.push(entry);
    if (event.type === 'page_error') {
      for (const entry of event.payload as PageErrorEntry[]) {
        watch.errors.push(entry);
        watch.logs.push({
          level: 'error',
          text: entry.message,
          ...(entry.stack ? { stack: entry.stack } : {}),
          uncaught: true,
          at: entry.at,
        });
      }
    }
  });
  bridge.pages.onChange((change) => {
    if (change.type === 'forgotten') bridge.buffers.drop(change.page.pageId);
    bridge.hub.broadcast('pages', { pages: bridge.pages.sessions(), heldOrigins: bridge.pages.heldOrigins() });
  });
}
