import type { Json } from '../../protocol/common.js';
import type { PageCommandArgs } from '../../protocol/commands.js';

function cookies(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const key = part.slice(0, eq).trim();
    try {
      out[key] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      out[key] = part.slice(eq + 1).trim();
    }
  }
  return out;
}

function area(name: 'local' | 'session'): Storage {
  try {
    return name === 'local' ? localStorage : sessionStorage;
  } catch {
    throw new Error(`${name}Storage is not available on this page (sandboxed or disabled)`);
  }
}

export function get(args: PageCommandArgs<'Storage.get'>): Json {
  if (args.area === 'cookie') {
    const all = cookies();
    return args.key !== undefined
      ? { key: args.key, value: all[args.key] ?? null }
      : { cookies: all, note: 'HttpOnly cookies are not visible to page script' };
  }
  const store = area(args.area);
  if (args.key !== undefined) return { key: args.key, value: store.getItem(args.key) };
  const items: Record<string, string> = {};
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    // the page agent's own identity is not the page's data
    if (key !== null && !key.startsWith('aiti-bridge:')) items[key] = store.getItem(key) ?? '';
  }
  return { items };
}

export function set(args: PageCommandArgs<'Storage.set'>): Json {
  if (args.area === 'cookie') {
    const key = encodeURIComponent(args.key);
    document.cookie =
      args.value === null
        ? `${key}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`
        : `${key}=${encodeURIComponent(args.value)}; path=/; SameSite=Lax`;
    return { ok: true, key: args.key, value: cookies()[args.key] ?? null };
  }
  const store = area(args.area);
  if (args.value === null) store.removeItem(args.key);
  else store.setItem(args.key, args.value);
  return { ok: true, key: args.key, value: store.getItem(args.key) };
}
