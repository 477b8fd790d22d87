import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { knownClients, OWNED_KEYS, SERVER_NAME, type ClientConfig } from './clients.js';
import { defaultShimEntry, type ShimEntry } from './entry.js';
import { planJson, type ConfigPlan } from './json-config.js';
import { planToml } from './toml-config.js';

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
}

export type RegisterStatus = 'added' | 'updated' | 'removed' | 'unchanged' | 'absent' | 'not-found' | 'error';

export interface ClientReport {
  client: string;
  file: string;
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
 * under `home`: Claude Code, Cursor, VS Code, Codex. Keeps the rest of each file, makes a backup beside it
 * before changing it, and changes nothing when the entry is already as wanted. Used by the CLI and the tray.
 */
export function registerShim(options: RegisterOptions = {}): RegisterReport {
  const home = options.home ?? homedir();
  const shim = options.shim ?? defaultShimEntry();
  const dryRun = Boolean(options.dryRun);
  const unregister = Boolean(options.unregister);
  const clients = knownClients(home, options.platform ?? process.platform, options.env ?? process.env).map((config) =>
    registerOne(config, shim, { dryRun, unregister }),
  );
  return { dryRun, unregister, shim, clients };
}

function registerOne(
  config: ClientConfig,
  shim: ShimEntry,
  mode: { dryRun: boolean; unregister: boolean },
): ClientReport {
  const base = { client: config.client, file: config.file };
  const exists = existsSync(config.file);
  if (!exists && !existsSync(config.marker)) return { ...base, status: 'not-found' };
  if (!exists && mode.unregister) return { ...base, status: 'absent' };
  let plan: ConfigPlan;
  try {
    const text = exists ? readFileSync(config.file, 'utf8') : '';
    const entry = mode.unregister ? undefined : config.entry(shim);
    // a re-run changes only the keys the shim owns and keeps what the user added (env …)
    plan =
      config.format === 'json'
        ? planJson(text, config.container, SERVER_NAME, entry, OWNED_KEYS)
        : planToml(text, config.container, SERVER_NAME, entry, OWNED_KEYS);
    if (plan.text === text) return { ...base, status: mode.unregister ? 'absent' : 'unchanged' };
  } catch (error) {
    return { ...base, status: 'error', error: `${config.file}: ${(error as Error).message}; left as it was` };
  }
  const status: RegisterStatus = mode.unregister ? 'removed' : plan.before === undefined ? 'added' : 'updated';
  const report: ClientReport = { ...base, status, before: plan.before, after: plan.after };
  if (mode.dryRun) return report;
  try {
    if (exists) {
      report.backup = `${config.file}.aiti-backup`;
      copyFileSync(config.file, report.backup);
    } else mkdirSync(dirname(config.file), { recursive: true });
    writeFileSync(config.file, plan.text);
  } catch (error) {
    return { ...base, status: 'error', error: `cannot write ${config.file}: ${(error as Error).message}` };
  }
  return report;
}

/** The report as lines for a terminal. */
export function formatReport(report: RegisterReport): string {
  const verb = report.dryRun ? 'would be' : 'was';
  const lines = report.clients.map((c) => {
    const what: Record<RegisterStatus, string> = {
      added: `aiti entry ${verb} added`,
      updated: `aiti entry ${verb} updated`,
      removed: `aiti entry ${verb} removed`,
      unchanged: 'already registered; nothing changed',
      absent: 'no aiti entry; nothing changed',
      'not-found': 'not found (not installed for this user?)',
      error: c.error ?? 'failed',
    };
    const backup = c.backup ? ` (backup: ${c.backup})` : '';
    const detail =
      report.dryRun && (c.status === 'added' || c.status === 'updated' || c.status === 'removed')
        ? `\n    - ${JSON.stringify(c.before ?? null)}\n    + ${JSON.stringify(c.after ?? null)}`
        : '';
    return `${c.client.padEnd(12)} ${c.file}: ${what[c.status]}${backup}${detail}`;
  });
  const command = [report.shim.command, ...report.shim.args].join(' ');
  return [`MCP clients ${report.unregister ? 'without' : 'running'} the shim: ${command}`, ...lines].join('\n') + '\n';
}
