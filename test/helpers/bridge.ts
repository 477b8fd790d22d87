import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createBridge, type Bridge } from '../../bridge/bridge.js';
import type { BridgeConfig } from '../../bridge/config.js';

const cleanups: Array<() => Promise<void> | void> = [];
/** a clean-up this slow is named on stderr, so a hook that times out says which one it waited for */
const SLOW_CLEANUP_MS = 15_000;
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    const slow = setTimeout(
      () => console.error(`clean-up still running after ${SLOW_CLEANUP_MS / 1000} s: ${String(cleanup).slice(0, 200)}`),
      SLOW_CLEANUP_MS,
    );
    try {
      await cleanup();
    } finally {
      clearTimeout(slow);
    }
  }
});

/** Registers work to undo after the current test. */
export function onCleanup(cleanup: () => Promise<void> | void): void {
  cleanups.push(cleanup);
}

export function tempDir(prefix = 'aiti-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A real bridge on port 0 with its own data dir, closed after the test. */
export async function startBridge(overrides: Partial<BridgeConfig> = {}): Promise<Bridge> {
  const bridge = await createBridge({ port: 0, dataDir: tempDir(), ...overrides });
  onCleanup(() => bridge.close());
  return bridge;
}

/** JSON over real HTTP; returns status, parsed body (or text) and headers. */
export async function http(
  url: string,
  init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** A raw GET, so the test writes the Host header itself (fetch will not); `url` may be an IPv6 address. */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
