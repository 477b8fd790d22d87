import type { Json } from '../../protocol/common.js';
import type { PageCommandArgs } from '../../protocol/commands.js';
import { navigationApi, type NavigateEventLike } from '../watch/departure.js';

/**
 * A navigation that loads a new document answers through the new document's claim (the bridge completes the
 * request when this page's agent connects again); a same-document one (hash, history state) answers here.
 */
export const NO_REPLY = Symbol('answered by the next document');
export type Reply = Json | typeof NO_REPLY;

/** Runs `start` and answers once the browser shows what kind of navigation it became. */
function observe(start: () => void, waitMs = 3000): Promise<Reply> {
  return new Promise((resolve) => {
    let settled = false;
    const api = navigationApi();
    const finish = (reply: Reply) => {
      if (settled) return;
      settled = true;
      window.removeEventListener('pagehide', onHide);
      window.removeEventListener('popstate', onSameDocument);
      window.removeEventListener('hashchange', onSameDocument);
      api?.removeEventListener('navigate', onNavigate);
      clearTimeout(timer);
      resolve(reply);
    };
    const onHide = () => finish(NO_REPLY);
    const onSameDocument = () => setTimeout(() => finish({ url: location.href, reloaded: false }), 0);
    const onNavigate = (event: NavigateEventLike) => {
      if (!event.destination.sameDocument && !event.downloadRequest) finish(NO_REPLY);
    };
    window.addEventListener('pagehide', onHide);
    window.addEventListener('popstate', onSameDocument);
    window.addEventListener('hashchange', onSameDocument);
    api?.addEventListener('navigate', onNavigate);
    const timer = setTimeout(
      () =>
        finish({
          url: location.href,
          reloaded: false,
          moved: false,
          note: 'nothing happened within 3 s (no history entry there?)',
        }),
      waitMs,
    );
    start();
  });
}

export function navigate(args: PageCommandArgs<'Page.navigate'>): Promise<Reply> {
  let url: URL;
  try {
    url = new URL(args.url, location.href);
  } catch {
    throw new Error(`"${args.url}" is not a URL; give an absolute URL or a path such as "/settings"`);
  }
  if (!['http:', 'https:', 'file:'].includes(url.protocol))
    throw new Error(`Page.navigate only follows http(s) and file URLs, not ${url.protocol}`);
  const here = new URL(location.href);
  if (url.origin !== here.origin) {
    // another origin has its own sessionStorage, so its agent (if it has one) claims as a new page: answer now
    setTimeout(() => location.assign(url.href), 50);
    return Promise.resolve({
      url: url.href,
      reloaded: true,
      note: `left for another origin (${url.origin}); if that page loads the agent it connects as a new page — call bridge_status`,
    });
  }
  if (url.href.split('#')[0] === here.href.split('#')[0] && url.hash && url.hash !== here.hash)
    return observe(() => (location.hash = url.hash));
  return observe(() => location.assign(url.href));
}

export function reload(): Promise<Reply> {
  return observe(() => location.reload());
}

export function back(): Promise<Reply> {
  return observe(() => history.back());
}

export function forward(): Promise<Reply> {
  return observe(() => history.forward());
}
