import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { knownClients, type ClientConfig } from './clients.js';

/**
 * How long the MCP client that launched this shim waits for one tool call, in ms, as its own settings say — or
 * undefined when they say nothing (the bridge then knows the client's default by its name, mcp/patience.ts).
 * Read from the client, so a question to the human can answer before the client cuts the call:
 * - AITI_CLIENT_TIMEOUT_MS in the shim's environment, for any client;
 * - Claude Code: the entry's `timeout` in ~/.claude.json, else MCP_TOOL_TIMEOUT (Claude Code passes its
 *   environment to the servers it starts);
 * - Codex: the entry's `tool_timeout_sec` in config.toml;
 * - Gemini CLI: the entry's `timeout` in settings.json.
 * "The entry" is the one that runs this shim: its command or arguments name aiti-bridge, with --stdio.
 */
export async function configuredToolTimeoutMs(
  clientName: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  home: string = env.HOME || homedir(),
): Promise<number | undefined> {
  const explicit = positive(Number(env.AITI_CLIENT_TIMEOUT_MS));
  if (explicit !== undefined) return explicit;
  const reads = READERS[clientName ?? ''];
  if (!reads) return undefined;
  const config = knownClients(home, process.platform, env).find((c) => c.client === reads.client);
  const entry = config ? await ourEntry(config).catch(() => undefined) : undefined;
  const set = entry ? positive(Number(entry[reads.key]) * reads.scale) : undefined;
  return set ?? (reads.env ? positive(Number(env[reads.env])) : undefined);
}

/** Where each client keeps the setting, by the name it gives in clientInfo. */
const READERS: Record<string, { client: string; key: string; scale: number; env?: string }> = {
  'claude-code': { client: 'Claude Code', key: 'timeout', scale: 1, env: 'MCP_TOOL_TIMEOUT' },
  'codex-mcp-client': { client: 'Codex', key: 'tool_timeout_sec', scale: 1000 },
  'gemini-cli-mcp-client': { client: 'Gemini CLI', key: 'timeout', scale: 1 },
};

/** The entry of the client's config that runs this shim, if there is one. */
async function ourEntry(config: ClientConfig): Promise<Record<string, unknown> | undefined> {
  const text = await readFile(config.file, 'utf8');
  const data = (config.format === 'toml' ? parseToml(text) : parseJsonc(text)) as Record<string, unknown>;
  const servers = data[config.container];
  if (!servers || typeof servers !== 'object') return undefined;
  return Object.values(servers as Record<string, unknown>).find(runsTheShim) as Record<string, unknown> | undefined;
}

function runsTheShim(entry: unknown): boolean {
  if (!entry || typeof entry !== 'object') return false;
  const { command, args } = entry as { command?: unknown; args?: unknown };
  const words = [command, ...(Array.isArray(args) ? args : [])].filter((w): w is string => typeof w === 'string');
  return words.includes('--stdio') && words.some((w) => w.includes('aiti-bridge'));
}

function positive(value: number): number | undefined {
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
