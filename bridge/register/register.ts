import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { knownClients, OWNED_KEYS, SERVER_NAME, type ClientConfig } from './clients.js';
import { defaultShimEntry, type ShimEntry } from './entry.js';
import { planJson, type ConfigPlan } from './json-config.js';
import { ConfigChangedError, replaceConfigFile, type ReplaceOptions } from './replace-file.js';
import { planToml } from './toml-config.js';

/** How often a config the client keeps rewriting is read and planned again before giving up. */
export const ATTEMPTS = 3;

export interface RegisterOptions {
  /** the home folder whose configs are edited (default: the user's) */
  home?: string;
  /** say what would change, write nothing */
  dryRun?: boolean;
  /** take the aiti entry out again */
  unregister?: boolean;
  /** the command clients run (default: this Node and this install's bin/aiti-bridge.js --stdio) */
  shim?: ShimEntry;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** for tests: hooks into the replacement of each file (replace-file.ts) */
  replace?: ReplaceOptions;
}

export type RegisterStatus = 'added' | 'updated' | 'removed' | 'unchanged' | 'absent' | 'not-found' | 'error';

export interface ClientReport {
  client: string;
  file: string;
  /** the file's format and the object (JSON) or table (TOML) holding the servers, for --dry-run's entries */
  format: ClientConfig['format'];
  container: string;
  status: RegisterStatus;
  /** where the file was before this change (only when a file was changed) */
  backup?: string;
  /** the aiti entry before and after, for --dry-run and the report */
  before?: unknown;
  after?: unknown;
  error?: string;
}

export interface RegisterReport {
  dryRun: boolean;
  unregister: boolean;
  shim: ShimEntry;
  clients: ClientReport[];
}

/**
 * Adds (or takes out) the `aiti` MCP server entry running the stdio shim in the configs of the clients found
 * under `home` (clients.ts): Claude Code, Cursor, VS Code and its profiles, VS Code Insiders, Codex, Gemini CLI.
 * Keeps the rest of each file, replaces it whole (replace-file.ts: the client never reads half a file, and a
 * rewrite by the client meanwhile is planned again, never overwritten), keeps a dated backup beside it, and changes
 * nothing when the entry is already as wanted. Used by the CLI and the tray.
 */
export function registerShim(options: RegisterOptions = {}): RegisterReport {
  const home = options.home ?? homedir();
  const shim = options.shim ?? defaultShimEntry();
  const dryRun = Boolean(options.dryRun);
  const unregister = Boolean(options.unregister);
  const clients = knownClients(home, options.platform ?? process.platform, options.env ?? process.env).map((config) =>
    registerOne(config, shim, { dryRun, unregister, ...(options.replace ? { replace: options.replace } : {}) }),
  );
  return { dryRun, unregister, shim, clients };
}

function registerOne(
  config: ClientConfig,
  shim: ShimEntry,
  mode: { dryRun: boolean; unregister: boolean; replace?: ReplaceOptions },
): ClientReport {
  const base = { client: config.client, file: config.file, format: config.format, container: config.container };
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const exists = existsSync(config.file);
    if (!exists && !existsSync(config.marker)) return { ...base, status: 'not-found' };
    if (!exists && mode.unregister) return { ...base, status: 'absent' };
    let text: string | undefined;
    let plan: ConfigPlan;
    try {
      text = exists ? readFileSync(config.file, 'utf8') : undefined;
      const entry = mode.unregister ? undefined : config.entry(shim);
      // a re-run changes only the keys the shim owns and keeps what the user added (env …)
      plan =
        config.format === 'json'
          ? planJson(text ?? '', config.container, SERVER_NAME, entry, OWNED_KEYS)
          : planToml(text ?? '', config.container, SERVER_NAME, entry, OWNED_KEYS);
      if (plan.text === (text ?? '')) return { ...base, status: mode.unregister ? 'absent' : 'unchanged' };
    } catch (error) {
      return { ...base, status: 'error', error: `${config.file}: ${(error as Error).message}; left as it was` };
    }
    const status: RegisterStatus = mode.unregister ? 'removed' : plan.before === undefined ? 'added' : 'updated';
    const report: ClientReport = { ...base, status, before: plan.before, after: plan.after };
    if (mode.dryRun) return report;
    try {
      if (!exists) mkdirSync(dirname(config.file), { recursive: true });
      const { backup } = replaceConfigFile(config.file, text, plan.text, mode.replace);
      return backup ? { ...report, backup } : report;
    } catch (error) {
      // the client rewrote its file meanwhile: plan again from what it wrote, never over it
      if (error instanceof ConfigChangedError) continue;
      return { ...base, status: 'error', error: `cannot write ${config.file}: ${(error as Error).message}` };
    }
  }
  return {
    ...base,
    status: 'error',
    error: `${config.file} was rewritten by another program (${config.client} itself?) each of the ${ATTEMPTS} times aiti-bridge was about to change it; left as it was: run --register-shim again once ${config.client} is idle`,
  };
}
