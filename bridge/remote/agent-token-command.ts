import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claimOf } from '../agents/claims.js';
import { AgentTokens, DEFAULT_EXPIRY, parseExpiry, type AgentTokenRecord } from '../agents/tokens.js';
import { tokenSetup } from '../agents/token-setup.js';
import { ConfigError, OPTIONS, resolveConfig, takesValue } from '../config.js';
import { parseCredential } from '../credentials.js';
import { BridgeError } from '../errors.js';
import { readRunningRecord, runningFile, type RunningRecord } from '../locate.js';
import { privateDir, replaceFile } from '../private-files.js';

export const AGENT_TOKEN_USAGE = `aiti-bridge agent-token — tokens for agents on other machines (they use the remote listener, --remote)

  aiti-bridge agent-token create NAME [--expires 30d|12h|90m|never] [--url URL] [--take-over]
        makes a token bound to agent id NAME (default expiry ${DEFAULT_EXPIRY}) and prints what to paste into each
        MCP client there; --url is the bridge as that machine reaches it (default: --remote-url, else
        http://127.0.0.1:<remote port>, the end of an ssh -R tunnel); a NAME a local session already took is
        refused unless --take-over (the token would read that agent's inbox)
  aiti-bridge agent-token save
        on the agent's machine: reads the token from standard input (paste it, then Ctrl-D) and keeps it in that
        machine's data dir (0600), where the stdio shim reads it with --mcp-auth: never on a command line
  aiti-bridge agent-token list       the tokens, their agent ids, expiry and last use
  aiti-bridge agent-token revoke NAME
        refuses NAME's token from now on (a running bridge closes its connections at once)

The bridge's own options (--data-dir, --remote, --remote-url) say which bridge; the token itself is shown once.
`;

export interface CommandOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

const PROCESS_OUTPUT: CommandOutput = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** `aiti-bridge agent-token …`: works on the data dir's agent-tokens.jsonl, with or without a running bridge. */
export async function runAgentToken(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  out: CommandOutput = PROCESS_OUTPUT,
  input: () => string = () => readFileSync(0, 'utf8'),
): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h') {
    out.stdout(AGENT_TOKEN_USAGE);
    return command ? 0 : 2;
  }
  const positional: string[] = [];
  const bridgeFlags: string[] = [];
  let expires = DEFAULT_EXPIRY;
  let url: string | undefined;
  let takeOver = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? '';
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg];
    const value = () => {
      const v = inline ?? rest[++i];
      if (v === undefined || v.startsWith('--')) throw new ConfigError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--expires') expires = value();
    else if (flag === '--take-over') takeOver = true;
    else if (flag === '--url') url = value();
    else if (arg.startsWith('--')) {
      bridgeFlags.push(arg);
      // a bridge option with its value in the next word (resolveConfig names an unknown one)
      const option = OPTIONS.find((o) => o.flag === flag);
      if (option && takesValue(option) && inline === undefined) bridgeFlags.push(value());
    } else positional.push(arg);
  }
  const config = resolveConfig(bridgeFlags, env);
  const tokens = new AgentTokens(join(config.dataDir, 'aiti-bridge', 'agent-tokens.jsonl'));
  try {
    if (command === 'save') {
      if (positional.length)
        throw new ConfigError('agent-token save reads the token from standard input, not its arguments');
      const token = input().trim();
      if (parseCredential(token)?.kind !== 'agent')
        throw new ConfigError('agent-token save: standard input is not an agent token (aiti_agent_…)');
      const dir = join(config.dataDir, 'aiti-bridge');
      privateDir(dir);
      const file = join(dir, 'agent-token');
      await replaceFile(file, `${token}\n`);
      out.stdout(
        `saved to ${file} (0600); the shim sends it with --mcp-auth (AITI_MCP_AUTH=1), after the bridge proves it\n`,
      );
      return 0;
    }
    if (command === 'create') {
      const name = single(positional, 'create');
      const running = readRunningRecord(config.dataDir);
      const elsewhere = otherBridge(bridgeFlags, env, config.dataDir, running);
      // the token would land in a data dir the bridge the person means does not read: 401 on every request
      if (elsewhere) throw new ConfigError(elsewhere);
      const known = claimed(join(config.dataDir, 'aiti-bridge', 'agent-ids.jsonl'), name);
      // on disk (fsynced) before it is printed; whole (it holds its name) once it was
      const made = await tokens.create(name, parseExpiry(expires), { known, takeOver });
      const base =
        url ??
        config.remoteUrl ??
        running?.remote?.url ??
        `http://127.0.0.1:${config.remote?.port || running?.remote?.port || 8778}`;
      out.stdout(
        created(made.record, made.token, base, {
          dataDir: config.dataDir,
          running,
          remoteKnown: Boolean(url || config.remote || config.remoteUrl || running?.remote),
        }),
      );
      await made.shown();
      return 0;
    }
    if (command === 'list') {
      if (positional.length) throw new ConfigError(`agent-token list takes no name, got ${positional.join(' ')}`);
      const list = tokens.list();
      out.stdout(
        list.length ? list.map(row).join('\n') + '\n' : 'no agent tokens (aiti-bridge agent-token create NAME)\n',
      );
      return 0;
    }
    if (command === 'revoke') {
      const revoked = await tokens.revoke(single(positional, 'revoke'));
      out.stdout(revoked.map((r) => `revoked ${r.name} (${r.id})\n`).join(''));
      return 0;
    }
  } catch (error) {
    if (error instanceof BridgeError) {
      out.stderr(`aiti-bridge agent-token ${command}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  throw new ConfigError(
    `unknown agent-token command "${command}": create, list, revoke or save (aiti-bridge agent-token --help)`,
  );
}

/** Whether a local session took agent id `name` (the bridge's agent-ids.jsonl, read without touching it). */
function claimed(file: string, name: string): string | undefined {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const taken = text.split('\n').some((line) => {
    const claim = line ? claimOf(line) : undefined;
    return typeof claim === 'object' && claim.id === name;
  });
  return taken ? 'a session took this id' : undefined;
}

function single(positional: string[], command: string): string {
  if (positional.length !== 1)
    throw new ConfigError(
      `agent-token ${command} takes one NAME (the agent id), got ${positional.length ? positional.join(' ') : 'none'}`,
    );
  return positional[0] ?? '';
}

function row(record: AgentTokenRecord): string {
  const expired = record.expiresAt && Date.parse(record.expiresAt) <= Date.now();
  return [
    record.name.padEnd(20),
    record.id,
    `made ${record.createdAt}`,
    record.expiresAt ? `${expired ? 'EXPIRED' : 'expires'} ${record.expiresAt}` : 'never expires',
    record.lastUsedAt ? `last used ${record.lastUsedAt}` : 'never used',
    ...(record.halfMade
      ? ['HALF-MADE (its create was cut off before it was shown; the next create of this name replaces it)']
      : []),
  ].join('  ');
}

/**
 * When the person pointed at a running bridge (--port, AITI_BRIDGE_URL, AITI_BRIDGE_PORT) that is not the one of
 * this data dir, what to say; the token file is read by the bridge of its own data dir only.
 */
function otherBridge(
  flags: string[],
  env: NodeJS.ProcessEnv,
  dataDir: string,
  running: RunningRecord | undefined,
): string | undefined {
  const portFlag = flags.findIndex((f) => f === '--port' || f.startsWith('--port='));
  const port =
    portFlag >= 0
      ? (flags[portFlag]?.split('=')[1] ?? flags[portFlag + 1])
      : env.AITI_BRIDGE_URL?.trim()
        ? portOf(env.AITI_BRIDGE_URL.trim())
        : env.AITI_BRIDGE_PORT?.trim();
  if (!port || port === '0') return undefined;
  if (running && portOf(running.url) === port) return undefined;
  return `the bridge on port ${port} does not use the data dir ${dataDir} (${running ? `its bridge listens on ${running.url}` : `no bridge runs there: no ${runningFile(dataDir)}`}), so a token kept there would be refused with 401 "unknown agent token"; give that bridge's own --data-dir (or AITI_BRIDGE_DATA_DIR)`;
}

function portOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  } catch {
    return undefined;
  }
}

function created(
  record: AgentTokenRecord,
  token: string,
  base: string,
  bridge: { dataDir: string; running: RunningRecord | undefined; remoteKnown: boolean },
): string {
  const { running } = bridge;
  const where = running
    ? running.remote
      ? `The bridge running on this machine (pid ${running.pid}, data dir ${bridge.dataDir}) has its remote listener at ${running.remote.url}; the lines below use it.`
      : `The bridge running on this machine (pid ${running.pid}, ${running.url}) has no remote listener: restart it with --remote 8778 (or AITI_REMOTE=8778) for agents elsewhere to reach it.`
    : `No bridge of the data dir ${bridge.dataDir} runs now; the token is kept there and works once one does.`;
  const lines = [
    `Agent token for "${record.name}" (id ${record.id}, ${record.expiresAt ? `expires ${record.expiresAt}` : 'never expires'}). It is shown once: copy it now.`,
    '',
    `  ${token}`,
    '',
    `It works on the remote listener only, and speaks for agent id "${record.name}" whatever the client calls itself.`,
    where,
    bridge.remoteKnown
      ? /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\]):/.test(base)
        ? `The lines below use ${base}: from another machine, reach it through a tunnel to that port, e.g. ssh -R ${portOf(base) ?? ''}:127.0.0.1:${portOf(base) ?? ''} <that machine> (--url changes it).`
        : `The agent's machine reaches the bridge at ${base} (--url changes it).`
      : `Start the bridge with --remote 8778 (or AITI_REMOTE=8778), then reach it from the agent's machine, e.g. ssh -R 8778:127.0.0.1:8778 <that machine>; the URL below assumes that (--url to change it).`,
    'The package is not on npm yet: until it is, on that machine write "node <a clone>/bin/aiti-bridge.js" (after npm ci && npm run build there) or "npx -y --package=<the packed .tgz> aiti-bridge" where the lines say "npx -y @aiti-ai/aiti-bridge".',
    '',
  ];
  for (const setup of tokenSetup(base, token, record.name)) {
    lines.push(`${setup.client}:`, ...setup.text.split('\n').map((line) => (line ? `  ${line}` : '')), '');
  }
  return lines.join('\n');
}
