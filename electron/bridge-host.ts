import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBridge, StartupError, type Bridge } from '../bridge/bridge.js';
import type { BridgeConfig } from '../bridge/config.js';
import { DataDirInUse } from '../bridge/data-dir-lock.js';
import { HealthAnswer } from '../bridge/protocol/human.js';
import { impostorText, provePeer } from '../bridge/prove-peer.js';

/** The bridge the window talks to: our own, in this process, or another one already listening on the port. */
export type BridgeHost =
  | { kind: 'own'; url: string; token: string; bridge: Bridge }
  | { kind: 'attached'; url: string; token: string; version: string };

export interface BridgeHostDeps {
  config: BridgeConfig;
  create?: (config: BridgeConfig) => Promise<Bridge>;
  /**
   * Another bridge answers on the port: ask the human whether to use its window instead.
   * Resolves true to attach, false to give up.
   */
  offerAttach(url: string, version: string): Promise<boolean>;
}

/** The URL a bridge listening with this config answers on (for the health probe). */
export function configuredUrl(config: Pick<BridgeConfig, 'host' | 'port'>): string {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** GET /bridge/health: the version of the bridge at `url`, or undefined when what answers is not a bridge. */
export async function probeBridge(url: string, timeoutMs = 2000): Promise<string | undefined> {
  try {
    const res = await fetch(`${url}/bridge/health`, { signal: AbortSignal.timeout(timeoutMs) });
    const parsed = HealthAnswer.safeParse(await res.json());
    return parsed.success ? parsed.data.version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the bridge at `url` holds `token`, asked without sending it: it must answer the HMAC of a fresh nonce
 * and its port. Whatever else answers /bridge/health on the port (another user's process) never gets the token.
 */
export async function holdsToken(url: string, token: string, timeoutMs = 2000): Promise<boolean> {
  return (await provePeer({ url: new URL(url) }, token, 'human', timeoutMs)).kind === 'proven';
}

/**
 * The token for the window's IPC ask, each time only after the bridge at `host.url` proved again that it holds it:
 * the window may have been reloaded from whatever holds the port now (the attached bridge stopped and another
 * program took its port), and that page must get nothing.
 */
export async function tokenForWindow(host: Pick<BridgeHost, 'url' | 'token'>): Promise<string> {
  if (!host.token) return '';
  const proof = await provePeer({ url: new URL(host.url) }, host.token);
  if (proof.kind === 'proven') return host.token;
  throw new Error(
    proof.kind === 'impostor'
      ? impostorText(host.url, proof.why)
      : `the bridge at ${host.url} does not answer (${proof.why}); the window gets the token only from a bridge that proves it holds it`,
  );
}

/** The token stored in the data dir (a bridge on the same data dir uses it), or "" when there is none. */
export function storedToken(config: Pick<BridgeConfig, 'dataDir' | 'token'>): string {
  if (config.token) return config.token;
  try {
    return readFileSync(join(config.dataDir, 'aiti-bridge', 'token'), 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * Starts the bridge in-process with the CLI's configuration; if another bridge holds the data dir (it says where it
 * listens) or the port, offers to attach.
 */
export async function startBridgeHost(deps: BridgeHostDeps): Promise<BridgeHost> {
  const create = deps.create ?? createBridge;
  try {
    const bridge = await create(deps.config);
    return { kind: 'own', url: bridge.url, token: bridge.token, bridge };
  } catch (error) {
    const holder = error instanceof DataDirInUse ? error.holder?.url : undefined;
    if (!(error instanceof StartupError) || (deps.config.port === 0 && !holder)) throw error;
    const url = holder ?? configuredUrl(deps.config);
    const version = await probeBridge(url);
    if (version === undefined) throw error;
    const token = storedToken(deps.config);
    if (token && !(await holdsToken(url, token))) {
      throw new StartupError(
        `another aiti-bridge ${version} listens on ${url} but does not hold this app's token (data dir ${deps.config.dataDir}); the app does not attach to it. Stop it, or start the app with another --port`,
      );
    }
    if (!(await deps.offerAttach(url, version))) {
      throw new StartupError(
        `another aiti-bridge ${version} already listens on ${url}; stop it, or start the app with another --port`,
      );
    }
    return { kind: 'attached', url, token, version };
  }
}
