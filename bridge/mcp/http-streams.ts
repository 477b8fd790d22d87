import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/server';
import type { LimitCounters } from '../limits.js';

/**
 * A call whose answer is not ready after this many ms gets its headers (an SSE stream) so the client knows the
 * bridge took it: the stdio shim sends its next message only then, and never sends a taken call again. A call
 * answered sooner goes back as one JSON body in one write, which the client reads without an SSE parser.
 */
const QUIET_HEADERS_MS = 20;

/**
 * Every stream tells its client to reconnect after this long (SSE `retry`). The official SDK client tries twice,
 * this far apart, to resume a stream that broke: enough for a bridge that restarts on its port to be back.
 */
export const RETRY_MS = 2000;

/** A POST stream that broke keeps its calls this long, so a client that resumes it still gets their answers. */
const RESUME_GRACE_MS = 30_000;

/** This run of the bridge, in every event id: a resume names the run its stream came from. */
const RUN = randomBytes(4).toString('hex');

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

/**
 * Where an event came from, read back from a Last-Event-ID: the run of the bridge, and the stream — the GET
 * stream (`g`), or a POST's, named by the ids of its requests (and whether they were all tool calls), so a bridge
 * that restarted can still answer them.
 */
export interface StreamOrigin {
  run: string;
  key: string;
  /** the requests of a POST stream; undefined for the GET stream */
  ids?: RequestId[];
  calls?: boolean;
}

export const GET_STREAM = 'g';

export function postStreamKey(ids: RequestId[], calls: boolean): string {
  return Buffer.from(JSON.stringify([ids, calls])).toString('base64url');
}

/** The stream a Last-Event-ID names, or undefined when it is none the bridge wrote. */
export function streamOrigin(lastEventId: string): StreamOrigin | undefined {
  const [run, key, seq] = lastEventId.split('.');
  if (!run || !key || seq === undefined || !/^\d+$/.test(seq)) return undefined;
  if (key === GET_STREAM) return { run, key };
  try {
    const [ids, calls] = JSON.parse(Buffer.from(key, 'base64url').toString('utf8')) as [unknown, unknown];
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' || typeof id === 'number')) return undefined;
    return { run, key, ids: ids as RequestId[], calls: calls === true };
  } catch {
    return undefined;
  }
}

export function isThisRun(origin: StreamOrigin): boolean {
  return origin.run === RUN;
}

/**
 * One SSE response: headers sent at once, a first event with an id and the `retry` (so the client can resume it),
 * events written with ids as they come, a keep-alive comment when quiet, and a reader that stops reading is
 * disconnected once it leaves limits.sseBufferBytes unread.
 */
/** Whether a client of this protocol version takes an SSE event with no data (the SDK's own rule). */
export function takesEmptyEvents(version: string | undefined): boolean {
  return version !== undefined && SUPPORTED_PROTOCOL_VERSIONS.includes(version) && version >= '2025-11-25';
}

export class SseWriter {
  readonly ended: Promise<void>;
  private keepAlive?: NodeJS.Timeout;
  private corked = false;
  private seq = 0;

  constructor(
    private readonly res: ServerResponse,
    private readonly keepAliveMs: number,
    private readonly limits?: LimitCounters,
    /** names the stream in its event ids; undefined: no ids (a stateless call cannot be resumed) */
    private readonly key?: string,
    /**
     * the client reads an event with no data (protocol 2025-11-25 on): a stream opens with one, so it has an id to
     * resume from before its first answer. Older clients' SDKs parse every event's data as JSON and drop the stream.
     */
    private readonly primes = true,
  ) {
    this.ended = new Promise((resolve) =>
      res.once('close', () => {
        clearInterval(this.keepAlive);
        resolve();
      }),
    );
  }

  /** Sends the headers; `now` false leaves them for the first event, to go in the same write. */
  open(headers: Record<string, string>, now = true): void {
    const socket = this.res.socket;
    this.limits?.streamOn(socket);
    socket?.setTimeout(0);
    socket?.setNoDelay(true);
    socket?.setKeepAlive(true);
    this.res.writeHead(200, { ...SSE_HEADERS, ...headers });
    if (now) this.res.flushHeaders();
    // the priming event: an id and no data, so a client whose stream breaks before the answer can resume it
    if (this.key !== undefined && this.primes) this.write(`retry: ${RETRY_MS}\nid: ${this.nextId()}\ndata:\n\n`);
    if (this.keepAliveMs > 0) {
      this.keepAlive = setInterval(() => this.write(': keepalive\n\n'), this.keepAliveMs);
      this.keepAlive.unref();
    }
  }

  event(message: JSONRPCMessage): void {
    const id = this.key !== undefined ? `id: ${this.nextId()}\n` : '';
    this.write(`${id}event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  private nextId(): string {
    return `${RUN}.${this.key ?? ''}.${this.seq++}`;
  }

  private write(text: string): void {
    const res = this.res;
    if (res.writableEnded || res.destroyed) return;
    // what one tick writes leaves in one packet
    if (!this.corked) {
      this.corked = true;
      res.cork();
      process.nextTick(() => {
        this.corked = false;
        res.uncork();
      });
    }
    res.write(text);
    if (this.limits && res.writableLength > this.limits.limits.sseBufferBytes) {
      this.limits.refused('sseReaders');
      res.destroy();
    }
  }

  end(): void {
    clearInterval(this.keepAlive);
    if (!this.res.writableEnded) this.res.end();
  }
}

export interface ExchangeSetup {
  ids: RequestId[];
  headers: Record<string, string>;
  /** may answer as an SSE stream (else always JSON) */
  streamable: boolean;
  keepAliveMs: number;
  limits?: LimitCounters;
  /** names its stream in event ids, so it can be resumed (sessions only) */
  key?: string;
  /** the client takes a priming event with no data (SseWriter) */
  primes: boolean;
  /** it is done with: answered, or broken and not resumed in time */
  onGone: () => void;
}

/**
 * The answer to one POST that carried requests. Answered within QUIET_HEADERS_MS and with nothing sent before:
 * one JSON body (one write). Otherwise an SSE stream, opened by the first notification for these requests (a
 * progress report) or by the quiet timer, ending after the last answer. A stream that breaks first keeps its
 * calls for RESUME_GRACE_MS: a GET that resumes it (Last-Event-ID) gets what is still to come, answers that came
 * meanwhile included.
 */
export class PostExchange {
  readonly ids: RequestId[];
  private readonly answers = new Map<RequestId, JSONRPCMessage>();
  /** the response answering now: the POST, or a GET that resumed it; undefined while the stream is broken */
  private res?: ServerResponse;
  private sse?: SseWriter;
  private quiet?: NodeJS.Timeout;
  private abandon?: NodeJS.Timeout;
  private done?: () => void;
  /** every answer is in */
  private finished = false;

  constructor(private readonly setup: ExchangeSetup) {
    this.ids = setup.ids;
  }

  get complete(): boolean {
    return this.finished;
  }

  /** Answers on the POST's own response; resolves when that response ended (answered or broken). */
  serve(res: ServerResponse): Promise<void> {
    return this.attach(res, () => (this.quiet = setTimeout(() => this.openHeaders(), QUIET_HEADERS_MS)));
  }

  /** A GET resumed this stream: what is still to come goes there, answers that came while it was broken first. */
  resume(res: ServerResponse): Promise<void> {
    return this.attach(res, () => {
      const sse = this.openStream(true);
      for (const id of this.ids) {
        const answer = this.answers.get(id);
        if (answer) sse?.event(answer);
      }
      if (this.finished) this.end();
    });
  }

  private attach(res: ServerResponse, start: () => void): Promise<void> {
    clearTimeout(this.abandon);
    this.done?.();
    this.res = res;
    this.sse = undefined;
    return new Promise((resolve) => {
      this.done = resolve;
      res.once('close', () => {
        if (this.res === res) this.broke();
        resolve();
      });
      start();
    });
  }

  /** A notification or request tied to these requests: it needs the stream. */
  event(message: JSONRPCMessage): void {
    if (!this.res || this.finished) return;
    this.openStream(false)?.event(message);
  }

  answer(id: RequestId, message: JSONRPCMessage): void {
    if (this.finished || this.answers.has(id)) return;
    this.answers.set(id, message);
    if (this.res && this.sse) this.sse.event(message);
    if (this.answers.size < this.ids.length) return;
    this.finished = true;
    if (this.res) this.end();
  }

  private end(): void {
    clearTimeout(this.quiet);
    const res = this.res;
    this.res = undefined;
    if (!res) return;
    if (this.sse) this.sse.end();
    else if (!res.writableEnded && !res.destroyed) {
      const answers = this.ids.map((id) => this.answers.get(id));
      const body = JSON.stringify(answers.length === 1 ? answers[0] : answers);
      if (!res.headersSent) {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...this.setup.headers,
        });
      }
      res.end(body);
    }
    this.setup.onGone();
  }

  /** Its response closed before the last answer: kept a while for a resume, then given up. */
  private broke(): void {
    clearTimeout(this.quiet);
    this.res = undefined;
    this.sse = undefined;
    if (this.setup.key === undefined) return this.setup.onGone();
    this.abandon = setTimeout(() => this.setup.onGone(), RESUME_GRACE_MS);
    this.abandon.unref();
  }

  /** Quiet too long: the headers go now (SSE when the client takes it, else JSON whose body follows later). */
  private openHeaders(): void {
    const res = this.res;
    if (!res || this.finished || res.headersSent) return;
    if (this.openStream(true)) return;
    res.writeHead(200, { 'content-type': 'application/json', ...this.setup.headers });
    res.flushHeaders();
  }

  private openStream(now: boolean): SseWriter | undefined {
    if (this.sse) return this.sse;
    const res = this.res;
    if (!res || !this.setup.streamable || res.headersSent) return undefined;
    this.sse = new SseWriter(res, this.setup.keepAliveMs, this.setup.limits, this.setup.key, this.setup.primes);
    this.sse.open(this.setup.headers, now);
    return this.sse;
  }

  /** The session ended: nothing more is written. */
  close(): void {
    clearTimeout(this.quiet);
    clearTimeout(this.abandon);
    this.finished = true;
    this.sse?.end();
    this.res = undefined;
    this.done?.();
  }
}
