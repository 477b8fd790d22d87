import type { LogEntry, NetworkEntry, PageErrorEntry } from '../protocol/index.js';
import type { PageBuffers } from './buffers.js';
import type { PageEventBus } from './events.js';
import type { PageRegistry } from './registry.js';
import type { PageRequests } from './requests.js';

/** Keeps the ring buffers filled from page events and tells the window when pages come and go. */
export function watchPages(bridge: {
  buffers: PageBuffers;
  pageEvents: Pick<PageEventBus, 'on'>;
  pages: Pick<PageRegistry, 'onChange'>;
  requests: Pick<PageRequests, 'noteDeparture'>;
  /** the window's coalesced feed (bridge/window/feed.ts), which sits above the pages */
  windowFeed: { pageChanged(pageId: string): void };
}): void {
  const { buffers } = bridge;
  bridge.pageEvents.on((event) => {
    if (event.type === 'navigate' && !event.frameId) {
      const { url, leaving } = event.payload as { url: string; leaving?: boolean };
      if (leaving) bridge.requests.noteDeparture(event.pageId, url);
      return;
    }
    const id = event.pageId;
    if (event.type === 'page_log') for (const entry of event.payload as LogEntry[]) buffers.record(id, 'logs', entry);
    if (event.type === 'page_network')
      for (const entry of event.payload as NetworkEntry[]) buffers.record(id, 'network', entry);
    if (event.type === 'page_error') {
      for (const entry of event.payload as PageErrorEntry[]) {
        buffers.record(id, 'errors', entry);
        buffers.record(id, 'logs', {
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
    if (change.type === 'forgotten') buffers.drop(change.page.pageId);
    // the window gets one coalesced delta for all the pages that changed meanwhile, never a list per change
    bridge.windowFeed.pageChanged(change.page.pageId);
  });
}
