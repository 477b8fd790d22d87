import type { Json } from '../../protocol/common.js';

/** The Navigation API, where the browser has it: typed here, as lib.dom does not yet. */
export interface NavigateEventLike extends Event {
  destination: { sameDocument: boolean; url: string };
  downloadRequest: string | null;
}
export interface NavigationLike {
  transition: unknown;
  addEventListener(type: 'navigate', listener: (event: NavigateEventLike) => void): void;
  removeEventListener(type: 'navigate', listener: (event: NavigateEventLike) => void): void;
}

export function navigationApi(): NavigationLike | undefined {
  return (window as unknown as { navigation?: NavigationLike }).navigation;
}

/**
 * A cross-document navigation that has started (Navigation API): this document is about to be replaced. Commands
 * report it ("navigating": url) and the agent stops taking new ones, so the bridge sends them to the next
 * document instead of to one that is unloading.
 */
let destination: string | undefined;

export function departingTo(): string | undefined {
  return destination;
}

const waiting = new Set<() => void>();

/** Resolves when a cross-document navigation starts (at once if one has): an action's settle ends there. */
export function departure(): { promise: Promise<void>; cancel(): void } {
  let done = () => undefined as void;
  const promise = new Promise<void>((resolve) => {
    done = resolve;
    if (destination) resolve();
    else waiting.add(resolve);
  });
  return { promise, cancel: () => waiting.delete(done) };
}

export function watchDeparture(onDepart: (url: string) => void, onStay: () => void): void {
  const api = navigationApi();
  api?.addEventListener('navigate', (event) => {
    // a download leaves the document where it is
    if (event.destination.sameDocument || event.downloadRequest) return;
    const url = event.destination.url;
    // after every listener ran: an SPA router that intercepted the navigation keeps this document
    queueMicrotask(() => {
      if (api.transition) return;
      destination = url;
      for (const resolve of waiting) resolve();
      waiting.clear();
      onDepart(url);
      // still here after a while: the navigation was cancelled, a download, or a 204
      setTimeout(() => {
        if (destination !== url) return;
        destination = undefined;
        onStay();
      }, 5000);
    });
  });
}

/** Lets a command that may have started a navigation see it before it answers. */
export async function withDeparture(result: Record<string, Json>): Promise<Json> {
  await Promise.resolve();
  const to = departingTo();
  return to ? { ...result, navigating: to } : result;
}
