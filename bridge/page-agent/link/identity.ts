/**
 * The page's identity for the bridge, kept in sessionStorage so a reload (same tab) claims the same pageId.
 * Storage can be missing (sandboxed iframes, opaque origins): then the identity lives as long as the document.
 */
export interface Identity {
  instanceId: string;
  secret?: string;
}

const memory = new Map<string, string>();

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

export function loadIdentity(base: string): Identity | undefined {
  const key = `aiti-bridge:${base}`;
  let raw: string | null | undefined;
  try {
    raw = storage()?.getItem(key);
  } catch {
    raw = undefined;
  }
  raw ??= memory.get(key);
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(raw) as Partial<Identity>;
    return typeof parsed.instanceId === 'string'
      ? { instanceId: parsed.instanceId, ...(typeof parsed.secret === 'string' ? { secret: parsed.secret } : {}) }
      : undefined;
  } catch {
    return undefined;
  }
}

export function saveIdentity(base: string, identity: Identity): void {
  const key = `aiti-bridge:${base}`;
  const raw = JSON.stringify(identity);
  memory.set(key, raw);
  try {
    storage()?.setItem(key, raw);
  } catch {
    // quota or disabled storage: the in-memory copy still serves this document
  }
}
