/**
 * What each credential of the remote listener has open right now (a window's stream, an agent's MCP stream, a call
 * in flight), so that revoking it cuts them at once instead of at the next request. Keys are `device:<id>` and
 * `agent:<id>`.
 */
export interface Link {
  once(event: 'close', listener: () => void): unknown;
  destroy(): void;
}

export class CredentialLinks {
  private readonly open = new Map<string, Set<Link>>();

  track(key: string, link: Link): void {
    let links = this.open.get(key);
    if (!links) this.open.set(key, (links = new Set()));
    links.add(link);
    link.once('close', () => {
      links.delete(link);
      if (!links.size && this.open.get(key) === links) this.open.delete(key);
    });
  }

  count(key: string): number {
    return this.open.get(key)?.size ?? 0;
  }

  /** Closes everything `key` has open; returns how many. */
  cut(key: string): number {
    const links = this.open.get(key);
    if (!links) return 0;
    this.open.delete(key);
    for (const link of links) link.destroy();
    return links.size;
  }
}
