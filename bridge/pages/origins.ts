import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLoopbackHostname } from '../http/guard.js';

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
    return isLoopbackOrigin(origin) || this.allowed.has(origin);
  }

  allow(origin: string): void {
    if (this.allowed.has(origin)) return;
    this.allowed.add(origin);
    mkdirSync(join(this.file, '..'), { recursive: true });
    writeFileSync(this.file + '.tmp', JSON.stringify([...this.allowed], null, 2));
    renameSync(this.file + '.tmp', this.file);
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

/** A page's origin: the browser's Origin header when it sent a real one, else the origin of the URL it claimed. */
export function pageOrigin(originHeader: string | undefined, url: string): string {
  if (originHeader && originHeader !== 'null') return originHeader;
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? `${parsed.protocol}//` : parsed.origin;
  } catch {
    return 'unknown';
  }
}
