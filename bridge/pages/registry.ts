import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { MAIN_FRAME, type ClaimAnswer, type ClaimBody, type SessionRow } from '../protocol/index.js';
import { Forbidden, NotFound } from '../errors.js';
import type { EventStream } from '../event-stream.js';
import { sameSecret } from '../token.js';
import { NO_ORIGIN, OPAQUE_ORIGIN, PageOrigins, pageOrigin } from './origins.js';
import type { LimitCounters } from '../limits.js';
import { PageQuota } from './quota.js';
import { PageIds } from './page-ids.js';

export interface Frame {
  frameId: string;
  url: string;
  /** the Origin header its stream opened with (the browser's word, unlike the url) */
  origin?: string;
  stream?: EventStream;
  lastSeen: number;
}

export interface Page {
  pageId: string;
  instanceId: string;
  secret: string;
  /** connected without a secret (old page agents, hand-written clients) */
  legacy: boolean;
  pageKey: string;
  url: string;
  title?: string;
  origin: string;
  frameworks: string[];
  frames: Map<string, Frame>;
  /** wall-clock ms, for the time shown */
  lastSeen: number;
  /** monotonic ms (performance.now()) of the same moment, for how long ago: a clock step never moves it */
  seenAt: number;
  forgetTimer?: NodeJS.Timeout;
}

export interface StreamQuery {
  instanceId: string;
  frameId?: string;
  url?: string;
  frameworks?: string;
  secret?: string;
}

export type PageChange = {
  type: 'attached' | 'detached' | 'claimed' | 'forgotten' | 'allowed';
  page: Page;
  frameId?: string;
};

export interface PageRegistryOptions {
  ttlMs: number;
  refuseLegacy: boolean;
  appDir: string;
  limits: LimitCounters;
}

/** Owns every page and its frames: identity across reloads, secrets, streams, the TTL and origin approval. */
export class PageRegistry {
  private readonly pages = new Map<string, Page>();
  private readonly byInstance = new Map<string, Page>();
  private readonly listeners = new Set<(change: PageChange) => void>();
  private readonly origins: PageOrigins;
  private readonly quota: PageQuota<Page>;
  private readonly ids: PageIds;
  /** new pages whose id is being written to disk */
  private readonly recording = new WeakMap<Page, Promise<void>>();

  constructor(private readonly options: PageRegistryOptions) {
    this.origins = new PageOrigins(options.appDir);
    this.ids = new PageIds(join(options.appDir, 'page-ids.jsonl'));
    this.quota = new PageQuota<Page>({
      counters: options.limits,
      isConnected,
      forget: (page) => this.forget(page),
    });
  }

  onChange(listener: (change: PageChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: PageChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /**
   * Claim or re-claim: the same instanceId with its secret keeps its pageId, across reloads and bridge restarts
   * alike (page-ids.ts remembers every pageId handed out).
   */
  async claim(body: ClaimBody, originHeader?: string): Promise<ClaimAnswer> {
    const existing = this.byInstance.get(body.instanceId);
    if (existing) {
      // A legacy page has no secret to prove who re-claims it: whoever learned its instanceId could take it over.
      if (existing.legacy)
        throw new Forbidden(
          `instanceId "${body.instanceId}" belongs to page ${existing.pageId}, which connected without a secret; claim with a new instanceId`,
          'instanceId',
        );
      if (!(body.secret && sameSecret(body.secret, existing.secret))) {
        throw new Forbidden(
          `instanceId "${body.instanceId}" belongs to page ${existing.pageId}; its secret does not match`,
          'secret',
        );
      }
      const from = existing.origin;
      Object.assign(existing, {
        url: body.url,
        pageKey: body.pageKey,
        title: body.title,
        frameworks: body.frameworks ?? existing.frameworks,
        origin: pageOrigin(originHeader),
      });
      this.quota.moved(existing, from);
      this.touch(existing);
      this.emit({ type: 'claimed', page: existing });
      return { pageId: existing.pageId, secret: existing.secret, operable: this.isOperable(existing) };
    }
    const known = this.ids.recognize(body.instanceId, body.secret);
    if (known.kind === 'legacy')
      throw new Forbidden(
        `instanceId "${body.instanceId}" belonged to page ${known.pageId}, which connected without a secret; claim with a new instanceId`,
        'instanceId',
      );
    if (known.kind === 'mismatch')
      throw new Forbidden(
        `instanceId "${body.instanceId}" belongs to page ${known.pageId}; its secret does not match`,
        'secret',
      );
    // a page the bridge knew before it restarted (or forgot after the TTL) gets its pageId and secret back
    const back = known.kind === 'match' && body.secret ? { pageId: known.pageId, secret: body.secret } : undefined;
    const page = this.create(body.instanceId, body.url, body.frameworks ?? [], originHeader, false, back);
    page.pageKey = body.pageKey;
    page.title = body.title;
    await this.recorded(page);
    this.emit({ type: 'claimed', page });
    return { pageId: page.pageId, secret: page.secret, operable: this.isOperable(page) };
  }

  private create(
    instanceId: string,
    url: string,
    frameworks: string[],
    originHeader: string | undefined,
    legacy: boolean,
    back?: { pageId: string; secret: string },
  ): Page {
    const origin = pageOrigin(originHeader);
    this.quota.admit(origin, !this.origins.isOperable(origin));
    const secret = back?.secret ?? newSecret();
    const issued = back ? undefined : this.ids.issue(instanceId, legacy ? undefined : secret);
    const page: Page = {
      pageId: back?.pageId ?? issued?.pageId ?? '',
      instanceId,
      secret,
      legacy,
      pageKey: '',
      url,
      origin,
      frameworks,
      frames: new Map([[MAIN_FRAME, { frameId: MAIN_FRAME, url, lastSeen: Date.now() }]]),
      lastSeen: Date.now(),
      seenAt: performance.now(),
    };
    this.pages.set(page.pageId, page);
    this.byInstance.set(instanceId, page);
    this.quota.added(page);
    this.scheduleForget(page);
    if (issued) this.recording.set(page, issued.recorded);
    return page;
  }

  /**
   * Resolves once a new page's id is on disk (at once for a page that had one already); a page whose id could not
   * be written is dropped and the error (Unavailable, 503) says why, so no claim is answered with an id a restart
   * could hand out again.
   */
  async recorded(page: Page): Promise<void> {
    const recording = this.recording.get(page);
    if (!recording) return;
    try {
      await recording;
    } catch (error) {
      clearTimeout(page.forgetTimer);
      if (this.pages.get(page.pageId) === page) this.pages.delete(page.pageId);
      if (this.byInstance.get(page.instanceId) === page) this.byInstance.delete(page.instanceId);
      this.quota.removed(page);
      this.ids.drop(page.instanceId);
      throw error;
    } finally {
      this.recording.delete(page);
    }
  }

  /**
   * The page, when the secret matches; a legacy page without a secret only from its own Origin. An unknown pageId
   * and a wrong secret answer alike, so a website cannot probe which page ids exist.
   */
  authorize(pageId: string, secret: string | undefined, originHeader?: string): Page {
    const page = this.pages.get(pageId);
    if (page?.legacy && !secret) {
      this.checkLegacy(page, originHeader);
      return page;
    }
    if (!page || !secret || !sameSecret(secret, page.secret))
      throw new Forbidden(
        `page "${pageId}" is not known here or its secret does not match; claim again with POST /bridge/claim`,
        'secret',
      );
    return page;
  }

  private checkSecret(page: Page, secret: string | undefined, originHeader: string | undefined): void {
    if (page.legacy && !secret) return this.checkLegacy(page, originHeader);
    if (!secret) throw new Forbidden(`page ${page.pageId} has a secret; send it`, 'secret');
    if (!sameSecret(secret, page.secret)) throw new Forbidden(`wrong secret for page ${page.pageId}`, 'secret');
  }

  /**
   * The legacy path (no secret) is for older page agents on the developer's own origins: the request must come
   * from the page's own Origin, and that origin must be loopback or allowed. An `<img>` sends no Origin at all.
   */
  private checkLegacy(page: Page, originHeader: string | undefined): void {
    if (this.options.refuseLegacy) throw refusedLegacy();
    const origin = pageOrigin(originHeader);
    if (origin !== page.origin || !this.isOperable(page))
      throw new Forbidden(
        `page ${page.pageId} connected without a secret, so it answers only to its own loopback or allowed origin (${page.origin}), not to "${origin}"; load the current page agent`,
        'secret',
      );
  }

  /** Frames announced by the top document (iframes running the page agent). */
  registerFrames(page: Page, frameIds: string[], urls: Record<string, string> = {}): void {
    this.quota.admitFrames(page.pageId, new Set([...page.frames.keys(), ...frameIds]).size);
    for (const frameId of frameIds) {
      const frame = page.frames.get(frameId);
      if (frame) frame.url = urls[frameId] ?? frame.url;
      else page.frames.set(frameId, { frameId, url: urls[frameId] ?? '', lastSeen: Date.now() });
    }
    this.touch(page);
    this.emit({ type: 'attached', page });
  }

  /**
   * A page stream asks to open. Without a secret this is the legacy path: accepted for an unknown instance
   * (and marked legacy) unless --refuse-legacy; a claimed page always needs its secret. Throws when refused.
   */
  admit(query: StreamQuery, originHeader?: string): Page {
    const page = this.byInstance.get(query.instanceId);
    if (page) {
      this.checkSecret(page, query.secret, originHeader);
      this.quota.admitStream();
      return page;
    }
    if (query.secret)
      throw new NotFound(
        `instanceId "${query.instanceId}" has no page; claim it first with POST /bridge/claim`,
        'instanceId',
      );
    if (this.options.refuseLegacy) throw refusedLegacy();
    const known = this.ids.recognize(query.instanceId, undefined);
    if (known.kind === 'mismatch')
      throw new Forbidden(
        `instanceId "${query.instanceId}" belongs to page ${known.pageId}, which has a secret; claim it with POST /bridge/claim and its secret`,
        'secret',
      );
    const origin = pageOrigin(originHeader);
    if (!this.origins.isOperable(origin))
      throw new Forbidden(
        `a page without a secret must come from a loopback or allowed origin; this one's Origin is "${origin}". Load the current page agent (it claims with a secret) or allow the origin in the AITI window`,
        'secret',
      );
    this.quota.admitStream();
    const frameworks = query.frameworks ? query.frameworks.split(',').filter(Boolean) : [];
    return this.create(query.instanceId, query.url ?? '', frameworks, originHeader, true);
  }

  /** An admitted stream is open: commands for this frame go down it until it closes. */
  attach(page: Page, query: StreamQuery, stream: EventStream, originHeader?: string): Frame {
    const frameId = query.frameId ?? MAIN_FRAME;
    let frame = page.frames.get(frameId);
    if (!frame) {
      this.quota.admitFrames(page.pageId, page.frames.size + 1);
      frame = { frameId, url: query.url ?? '', lastSeen: Date.now() };
      page.frames.set(frameId, frame);
    }
    const previous = frame.stream;
    frame.stream = stream;
    this.quota.openStreams++;
    if (query.url) frame.url = query.url;
    if (originHeader) frame.origin = pageOrigin(originHeader);
    if (frameId === MAIN_FRAME && query.url) page.url = query.url;
    previous?.close();
    this.touch(page, frame);
    const attached = frame;
    stream.onClose(() => {
      this.quota.openStreams--;
      if (attached.stream !== stream) return;
      attached.stream = undefined;
      this.touch(page, attached);
      this.emit({ type: 'detached', page, frameId });
    });
    this.emit({ type: 'attached', page, frameId });
    return frame;
  }

  /** Marks activity; a page with no open stream is forgotten after the TTL. */
  touch(page: Page, frame?: Frame): void {
    const now = Date.now();
    page.lastSeen = now;
    page.seenAt = performance.now();
    if (frame) frame.lastSeen = now;
    this.scheduleForget(page);
  }

  private scheduleForget(page: Page): void {
    clearTimeout(page.forgetTimer);
    page.forgetTimer = undefined;
    if (isConnected(page)) return;
    page.forgetTimer = setTimeout(() => this.forget(page), this.options.ttlMs);
    page.forgetTimer.unref();
  }

  private forget(page: Page): void {
    if (isConnected(page) || this.pages.get(page.pageId) !== page) return;
    clearTimeout(page.forgetTimer);
    this.pages.delete(page.pageId);
    this.byInstance.delete(page.instanceId);
    this.quota.removed(page);
    this.emit({ type: 'forgotten', page });
  }

  get(pageId: string): Page | undefined {
    return this.pages.get(pageId);
  }

  all(): Page[] {
    return [...this.pages.values()];
  }

  isOperable(page: Page): boolean {
    return this.origins.isOperable(page.origin);
  }

  /** Whether pages of this origin (as pageOrigin reads the header) are the developer's own: loopback or allowed. */
  isOperableOrigin(origin: string): boolean {
    return this.origins.isOperable(origin);
  }

  /** Pages that are connected now and whose origin is allowed: the ones agents can drive. */
  operable(): Page[] {
    return this.all().filter((p) => isConnected(p) && this.isOperable(p));
  }

  /** Read per origin, not per page: the window asks for it on every pages update. */
  heldOrigins(): string[] {
    // `null` and no Origin cannot be allowed (any site sends them): no Allow button for them
    return this.quota
      .origins()
      .filter((origin) => !this.origins.isOperable(origin) && origin !== OPAQUE_ORIGIN && origin !== NO_ORIGIN);
  }

  /** Allows an origin once it is on disk; when the disk did not confirm it, it is allowed all the same (and says so). */
  async allowOrigin(origin: string): Promise<void> {
    const wasOperable = this.origins.isOperable(origin);
    try {
      await this.origins.allow(origin);
    } finally {
      if (!wasOperable && this.origins.isOperable(origin))
        for (const page of this.all()) if (page.origin === origin) this.emit({ type: 'allowed', page });
    }
  }

  /** One row per frame (GET /bridge/sessions). */
  sessions(): SessionRow[] {
    return this.all().flatMap((page) => this.rowsOf(page));
  }

  /** The rows of one page, one per frame (what a window update carries for a page that changed). */
  rowsOf(page: Page): SessionRow[] {
    return [...page.frames.values()].map((frame) => ({
      instanceId: page.instanceId,
      frameId: frame.frameId,
      pageId: page.pageId,
      url: frame.url || page.url,
      ...(page.title ? { title: page.title } : {}),
      origin: page.origin,
      frameworks: page.frameworks,
      active: Boolean(frame.stream?.isOpen),
      operable: this.isOperable(page),
      legacy: page.legacy,
      lastSeen: new Date(frame.lastSeen).toISOString(),
    }));
  }

  close(): void {
    void this.ids.close();
    for (const page of this.pages.values()) {
      clearTimeout(page.forgetTimer);
      for (const frame of page.frames.values()) frame.stream?.close();
    }
  }
}

export function isConnected(page: Page): boolean {
  for (const frame of page.frames.values()) if (frame.stream?.isOpen) return true;
  return false;
}

function refusedLegacy(): Forbidden {
  return new Forbidden(
    'this bridge refuses pages without a secret (--refuse-legacy); load the current page agent',
    'secret',
  );
}

function newSecret(): string {
  return randomBytes(18).toString('base64url');
}
