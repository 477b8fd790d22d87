import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Invalid } from '../errors.js';
import { isLoopbackHostname } from '../loopback.js';
import { DiskError, replaceFile } from '../private-files.js';

/**
 * What a page's origin reads when the browser sent `Origin: null` (a sandboxed iframe, a file: or data: page)
 * or no Origin at all (an `<img>`, a `<link>`, a non-browser client). Neither ever makes a page operable, and
 * neither can be allowed: every site can produce them.
 */
export const OPAQUE_ORIGIN = 'null';
export const NO_ORIGIN = 'none';

/** The page origins the human allowed, remembered in `<appDir>/allowed-origins.json`. Loopback origins need none. */
export class PageOrigins {
  private readonly allowed = new Set<string>();
  private readonly file: string;

  constructor(appDir: string) {
    this.file = join(appDir, 'allowed-origins.json');
    try {
      const stored = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      if (Array.isArray(stored)) for (const o of stored) if (typeof o === 'string') this.allowed.add(o);
    } catch {
      // nothing allowed yet
    }
  }

  isOperable(origin: string): boolean {
    if (origin === OPAQUE_ORIGIN || origin === NO_ORIGIN) return false;
    return isLoopbackOrigin(origin) || this.allowed.has(origin);
  }

  /**
   * The human's decision, on disk (written, fsynced, renamed, the directory fsynced) before it takes effect and the
   * window hears 200. A DiskError (503) says what is on disk: nothing changed, or the origin is in the file but the
   * disk did not confirm it — then it is allowed now too, as it will be after a restart.
   */
  async allow(origin: string): Promise<void> {
    if (origin === OPAQUE_ORIGIN || origin === NO_ORIGIN)
      throw new Invalid(
        `origin "${origin}" cannot be allowed: any website can send it (a sandboxed iframe, an image); serve the page from a real origin`,
        'origin',
      );
    if (this.allowed.has(origin)) return;
    const next = [...this.allowed, origin];
    try {
      await replaceFile(this.file, JSON.stringify(next, null, 2), `could not keep the allowed origin ${origin}`);
    } catch (error) {
      if (error instanceof DiskError && error.outcome === 'unconfirmed') this.allowed.add(origin);
      throw error;
    }
    this.allowed.add(origin);
  }
}

export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHostname(url.hostname);
  } catch {
    return false;
  }
}

/**
 * A page's origin is the browser's Origin header and nothing else: the URL a page claims is its own say-so, so
 * a website could claim `http://localhost:3000/` from a sandboxed iframe. `null` and a missing header stay
 * visible as such (held, never operable).
 */
export function pageOrigin(originHeader: string | undefined): string {
  const origin = originHeader?.trim();
  if (!origin) return NO_ORIGIN;
  return origin.toLowerCase() === 'null' ? OPAQUE_ORIGIN : origin;
}
