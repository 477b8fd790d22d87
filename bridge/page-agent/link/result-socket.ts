import { MAIN_FRAME, type Json } from '../../protocol/common.js';

/**
 * What went over the socket this recently (at most REPEAT_MAX messages) is posted again when the document unloads
 * or the socket drops. A message is lost only when the document goes while it is still on its way, which takes
 * well under a second; posting more would spend the unload's keepalive budget (64 KiB for all of them) for nothing.
 */
const REPEAT_MS = 1_000;
const REPEAT_MAX = 20;
/** larger results go as a POST: a keepalive fetch (the unload path) carries at most 64 KiB */
const MAX_MESSAGE = 60_000;

/** A ResultBody without pageId and secret: the socket stands for them. */
export type SocketResult = { requestId: string } & ({ ok: true; result: Json } | { ok: false; error: string });

export interface SocketSession {
  base: string;
  pageId: string;
  secret: string;
  frameId: string;
}

/**
 * The fast path for command results (bridge/pages/result-socket-routes.ts): a WebSocket, opened on the first command
 * of a session, that carries each result as one message. Until it is open, and when it cannot open at all (a
 * CSP without ws:, a proxy), results go by `POST /bridge/result`.
 *
 * A message on a socket has no answer, so a document that unloads right after sending could lose it: the last
 * second of messages is kept, and goes again as keepalive POSTs on `pagehide` or when the socket drops. The
 * bridge takes a repeat of a result it already has as a no-op.
 */
export class ResultSocket {
  private socket?: WebSocket;
  private session?: SocketSession;
  /** the socket never opened in this document: do not try again (and do not repeat a CSP report) */
  private unavailable = false;
  private recent: Array<{ at: number; result: SocketResult }> = [];

  /** `repeat` posts one result again. */
  constructor(private readonly repeat: (session: SocketSession, result: SocketResult) => void) {}

  /** Sends `result` over the open socket of `session`; false when the caller must post it. Opens the socket. */
  send(session: SocketSession, result: SocketResult): boolean {
    if (this.session !== session) this.open(session);
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    const text = JSON.stringify(result);
    if (text.length > MAX_MESSAGE) return false;
    socket.send(text);
    const now = performance.now();
    this.recent = this.recent.filter((sent) => now - sent.at < REPEAT_MS).slice(1 - REPEAT_MAX);
    this.recent.push({ at: now, result });
    return true;
  }

  /** The document unloads (pagehide) or the session ends: repeat the recent messages, then close. */
  close(): void {
    this.repeatRecent();
    const socket = this.socket;
    this.socket = undefined;
    this.session = undefined;
    if (socket) {
      socket.onclose = null;
      socket.close(1000, 'closed by the page');
    }
  }

  private open(session: SocketSession): void {
    this.close();
    this.session = session;
    if (this.unavailable || typeof WebSocket !== 'function') return;
    const query = new URLSearchParams({ pageId: session.pageId, secret: session.secret });
    if (session.frameId !== MAIN_FRAME) query.set('frameId', session.frameId);
    let socket: WebSocket;
    try {
      socket = new WebSocket(`${session.base.replace(/^http/, 'ws')}/bridge/result-socket?${query}`);
    } catch {
      this.unavailable = true; // a CSP that refuses ws: throws here
      return;
    }
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      if (!opened) this.unavailable = true;
      this.repeatRecent();
      this.socket = undefined;
      // the next command opens a new one (after a bridge restart or a refusal the stream reconnects first)
      this.session = undefined;
    };
  }

  private repeatRecent(): void {
    const session = this.session;
    const recent = this.recent;
    this.recent = [];
    if (!session) return;
    const now = performance.now();
    for (const sent of recent) if (now - sent.at < REPEAT_MS) this.repeat(session, sent.result);
  }
}
