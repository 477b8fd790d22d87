import type { BridgeEndpoint } from './env.js';
import type { Connection, Session } from './connection.js';
import { claimPage } from './connection.js';
import { BridgeHttpError, postJson } from './transport.js';

/**
 * Iframes run the agent too and join the top page as frames. The child asks its parent with postMessage; the
 * parent (which holds the page secret) registers a frame id with the bridge and answers with the session.
 * This works across origins, because only the two windows talk. Any agent answers its own children, so nested
 * frames get ids like `f1.2`.
 */
interface FrameHello {
  aiti: 'frame-hello';
  url: string;
}
interface FrameWelcome {
  aiti: 'frame-welcome';
  session: Session;
}

const frameIds = new WeakMap<Element, string>();
let nextFrame = 1;

function allFrames(root: Document | ShadowRoot = document): HTMLIFrameElement[] {
  const found = [...root.querySelectorAll<HTMLIFrameElement>('iframe, frame')];
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) found.push(...allFrames(el.shadowRoot));
  return found;
}

/** The frame id given to an iframe that runs the agent, if it asked for one. */
export function frameIdOf(iframe: Element): string | undefined {
  return frameIds.get(iframe);
}

/**
 * The page secret goes only to children the bridge would trust on their own: this page's origin or a loopback
 * one. Any other iframe (an ad, a widget) could send the same message; it claims as its own page instead, which
 * the bridge holds until the human allows its origin.
 */
function trustedChild(origin: string): boolean {
  if (origin === location.origin) return true;
  try {
    const host = new URL(origin).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
  } catch {
    return false;
  }
}

/** Parent side: answer children that ask to join the page. */
export function serveChildFrames(connection: Connection): void {
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const data = event.data as Partial<FrameHello> | null;
    if (!data || typeof data !== 'object' || data.aiti !== 'frame-hello') return;
    if (!trustedChild(event.origin)) return;
    const iframe = allFrames().find((f) => f.contentWindow === event.source);
    if (!iframe || !event.source) return;
    const source = event.source as Window;
    void (async () => {
      const session = await connection.ready();
      let frameId = frameIds.get(iframe);
      if (!frameId) {
        frameId = session.frameId === 'main' ? `f${nextFrame++}` : `${session.frameId}.${nextFrame++}`;
        frameIds.set(iframe, frameId);
      }
      const url = typeof data.url === 'string' ? data.url.slice(0, 8192) : '';
      await postJson(`${session.base}/bridge/register`, {
        pageId: session.pageId,
        secret: session.secret,
        frameIds: [frameId],
        urls: { [frameId]: url },
      });
      const welcome: FrameWelcome = { aiti: 'frame-welcome', session: { ...session, frameId } };
      source.postMessage(welcome, event.origin === 'null' ? '*' : event.origin);
    })().catch(() => undefined);
  });
}

/**
 * Child side: ask the parent for the session, repeating until it answers (its agent may load later). A parent
 * without an agent never answers: after `waitMs` this document claims as a page of its own.
 */
export function frameSession(endpoint: BridgeEndpoint, frameworks: () => string[], waitMs = 3000) {
  let standalone = false;
  const obtain = async (): Promise<Session> => {
    if (standalone) return claimPage(endpoint, frameworks());
    let welcome: Welcome;
    try {
      welcome = await askParent(waitMs);
    } catch {
      standalone = true;
      return claimPage(endpoint, frameworks());
    }
    try {
      return await trustWelcome(endpoint, welcome);
    } catch (error) {
      if (!(error instanceof BridgeHttpError)) throw error; // bridge unreachable: ask again on the next attempt
      standalone = true;
      return claimPage(endpoint, frameworks());
    }
  };
  return Object.assign(obtain, {
    /** the parent's agent appeared: ask it again (true when this frame had gone its own way) */
    rejoin(): boolean {
      const was = standalone;
      standalone = false;
      return was;
    },
  });
}

interface ParentReady {
  aiti: 'frame-parent-ready';
}

/**
 * Parent side: once this agent has a session, tell the iframes. A child that gave up waiting (the parent's agent
 * loaded late, or the bridge restarted and the parent took longer than the child's wait to come back) asks again
 * and rejoins the page instead of staying a page of its own. The message carries nothing secret.
 */
export function announceToChildren(): void {
  const ready: ParentReady = { aiti: 'frame-parent-ready' };
  for (const frame of allFrames()) frame.contentWindow?.postMessage(ready, '*');
}

/** Child side: `rejoin` runs when the parent window says its agent is ready. */
export function onParentReady(rejoin: () => void): void {
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const data = event.data as Partial<ParentReady> | null;
    if (event.source !== window.parent || !data || typeof data !== 'object' || data.aiti !== 'frame-parent-ready')
      return;
    rejoin();
  });
}

interface Welcome {
  session: Session;
  /** the parent's origin as this browser reports it, not as the parent says */
  origin: string;
}

/**
 * Any website can frame the app and answer `frame-hello`. So the child talks only to the bridge of its own script
 * tag (never to a `base` the parent names), and asks that bridge whether the welcome is good: a real session of an
 * operable page whose documents have the parent's origin. Throws BridgeHttpError when the bridge says no.
 */
async function trustWelcome(endpoint: BridgeEndpoint, welcome: Welcome): Promise<Session> {
  const session: Session = { ...welcome.session, base: endpoint.base };
  await postJson(`${endpoint.base}/bridge/frame-check`, {
    pageId: session.pageId,
    instanceId: session.instanceId,
    secret: session.secret,
    frameId: session.frameId,
    parentOrigin: welcome.origin,
  });
  return session;
}

function askParent(waitMs: number): Promise<Welcome> {
  return new Promise((resolve, reject) => {
    const hello: FrameHello = { aiti: 'frame-hello', url: location.href };
    const send = () => window.parent.postMessage(hello, '*');
    const onMessage = (event: MessageEvent<unknown>) => {
      const data = event.data as Partial<FrameWelcome> | null;
      if (event.source !== window.parent || !data || data.aiti !== 'frame-welcome' || !data.session) return;
      done();
      resolve({ session: data.session, origin: event.origin });
    };
    const timer = setInterval(send, 300);
    const giveUp = setTimeout(() => {
      done();
      reject(new Error('no page agent in the parent frame'));
    }, waitMs);
    const done = () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      window.removeEventListener('message', onMessage);
    };
    window.addEventListener('message', onMessage);
    send();
  });
}
