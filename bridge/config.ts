import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Limits } from './limits.js';
import { closest } from './protocol/closest.js';

export class ConfigError extends Error {}

/** `--remote [HOST:]PORT`: where the remote listener listens (HOST defaults to 127.0.0.1, for a tunnel). */
export interface ListenAddress {
  host: string;
  port: number;
}

/**
 * The variable that says other people share this machine's loopback (an SSH login, a Codespace, a devcontainer),
 * or undefined. There MCP asks for the agent token by default: other users reach the same 127.0.0.1.
 */
export function sharedMachine(env: NodeJS.ProcessEnv): string | undefined {
  return ['SSH_CONNECTION', 'CODESPACES', 'REMOTE_CONTAINERS'].find((name) => Boolean(env[name]));
}

export const DEFAULT_PORT = 8777;

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return env.APPDATA ?? join(homedir(), 'AppData', 'Roaming');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support');
  return env.XDG_CONFIG_HOME || join(homedir(), '.config');
}

/** How an option's value is read from a flag or variable; each names the bad value in a ConfigError. */
export const PARSERS = {
  port(raw: string, source: string): number {
    const n = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || n > 65535) {
      throw new ConfigError(`${source} must be a port number from 0 to 65535, got "${raw}"`);
    }
    return n;
  },
  ms(raw: string, source: string): number {
    const n = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || n < 1)
      throw new ConfigError(`${source} must be a positive number of milliseconds, got "${raw}"`);
    return n;
  },
  bool(raw: string, source: string): boolean {
    const v = raw.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on', ''].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    throw new ConfigError(`${source} must be true or false, got "${raw}"`);
  },
  list(raw: string): string[] {
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  },
  string(raw: string, source: string): string {
    if (!raw.trim()) throw new ConfigError(`${source} must not be empty`);
    return raw;
  },
  address(raw: string, source: string): ListenAddress {
    const value = raw.trim();
    const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(value) ?? /^()()(\d+)$/.exec(value);
    const port = match ? Number(match[3]) : NaN;
    if (!match || port > 65535)
      throw new ConfigError(`${source} must be [HOST:]PORT (8778, 0.0.0.0:8778, [::]:8778), got "${raw}"`);
    return { host: match[1] || match[2] || '127.0.0.1', port };
  },
  url(raw: string, source: string): string {
    let url: URL | undefined;
    try {
      url = new URL(raw.trim());
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol))
      throw new ConfigError(`${source} must be an http:// or https:// URL, got "${raw}"`);
    return url.href.replace(/\/$/, '');
  },
};

/**
 * One row of OPTIONS: everything about an option, written once. `parse` also gives the value's type in
 * BridgeConfig; `default` (a value, or computed from the environment) makes the key always set, and its absence
 * makes it optional; `{default}` in `help` is replaced by the default, so --help cannot name another one.
 */
interface OptionSpec<T> {
  key: string;
  flag: string;
  env: string;
  parse: (raw: string, source: string) => T;
  default?: Readonly<T> | ((env: NodeJS.ProcessEnv) => T);
  help: string;
  /**
   * a secret: refused as a flag, where every user of the machine reads it in /proc/<pid>/cmdline (`ps`); taken
   * from its environment variable or its file only
   */
  secret?: { file: string };
}
type AnyOptionSpec = { [K in keyof typeof PARSERS]: OptionSpec<ReturnType<(typeof PARSERS)[K]>> }[keyof typeof PARSERS];

/** Every option of the bridge (README "Configuration"): flag > environment > default, in --help's order. */
export const OPTIONS = [
  {
    flag: '--port',
    env: 'AITI_BRIDGE_PORT',
    key: 'port',
    parse: PARSERS.port,
    default: DEFAULT_PORT,
    help: 'listen port; 0 picks a free one (default {default})',
  },
  {
    flag: '--host',
    env: 'AITI_BRIDGE_HOST',
    key: 'host',
    parse: PARSERS.string,
    default: '127.0.0.1',
    help: 'listen address (default {default}); whatever it is, only programs on this machine are served: other machines get 403 (reach the bridge from elsewhere through an SSH tunnel)',
  },
  {
    flag: '--data-dir',
    env: 'AITI_BRIDGE_DATA_DIR',
    key: 'dataDir',
    parse: PARSERS.string,
    default: (env) => defaultDataDir(env),
    help: 'files live under <dir>/aiti-bridge/ (default: the OS app-data dir)',
  },
  {
    flag: '--token',
    env: 'AITI_BRIDGE_TOKEN',
    key: 'token',
    parse: PARSERS.string,
    help: "the human's token (default: generated once into <data-dir>/aiti-bridge/token); a flag shows in ps to every user of the machine: prefer the token file or AITI_BRIDGE_TOKEN",
  },
  {
    flag: '--mcp-auth',
    env: 'AITI_MCP_AUTH',
    key: 'mcpAuth',
    parse: PARSERS.bool,
    default: (env) => sharedMachine(env) !== undefined,
    help: 'require Authorization: Bearer <agent token> on the MCP endpoint (<data-dir>/aiti-bridge/agent-token; it cannot answer asks); on by default where SSH_CONNECTION, CODESPACES or REMOTE_CONTAINERS is set (other users share that loopback): --mcp-auth=false turns it off',
  },
  {
    flag: '--allowed-origins',
    env: 'AITI_ALLOWED_ORIGINS',
    key: 'allowedOrigins',
    parse: PARSERS.list,
    default: [],
    help: 'comma-separated browser origins allowed on the MCP and window endpoints',
  },
  {
    flag: '--allowed-hosts',
    env: 'AITI_ALLOWED_HOSTS',
    key: 'allowedHosts',
    parse: PARSERS.list,
    default: [],
    help: 'comma-separated Host names accepted besides loopback (local names that resolve to this machine, e.g. myapp.test)',
  },
  {
    flag: '--refuse-legacy',
    env: 'AITI_REFUSE_LEGACY',
    key: 'refuseLegacy',
    parse: PARSERS.bool,
    default: false,
    help: 'refuse pages that connect without a secret',
  },
  {
    flag: '--ttl',
    env: 'AITI_BRIDGE_TTL',
    key: 'ttlMs',
    parse: PARSERS.ms,
    default: 600_000,
    help: 'ms a page/agent registration is kept after disconnect (default {default})',
  },
  {
    flag: '--project-root',
    env: 'AITI_PROJECT_ROOT',
    key: 'projectRoot',
    parse: PARSERS.string,
    help: 'confine open_file and file_stat to paths inside this directory (default: no confinement)',
  },
  // `{file}`, `{line}` and `{column}` are replaced; the command runs without a shell (pages/open-file.ts)
  {
    flag: '--open-cmd',
    env: 'AITI_OPEN_CMD',
    key: 'openCmd',
    parse: PARSERS.string,
    default: 'code --goto {file}:{line}',
    help: 'editor command for open_file (default "{default}")',
  },
  {
    flag: '--command-timeout',
    env: 'AITI_COMMAND_TIMEOUT',
    key: 'commandTimeoutMs',
    parse: PARSERS.ms,
    default: 30_000,
    help: 'ms the bridge waits for a page to answer a command without its own timeout (default {default})',
  },
  {
    flag: '--socket',
    env: 'AITI_BRIDGE_SOCKET',
    key: 'socket',
    parse: PARSERS.string,
    help: 'also listen on this Unix socket, in a directory only you may enter (made 0700 when missing); agents then use AITI_BRIDGE_URL=unix:<path> (default: none)',
  },
  {
    flag: '--remote',
    env: 'AITI_REMOTE',
    key: 'remote',
    parse: PARSERS.address,
    help: 'also listen on [HOST:]PORT (HOST 127.0.0.1 by default, for a tunnel) for devices and agents elsewhere: every request there needs a device token (pair in the window) or an agent token (aiti-bridge agent-token create NAME) (default: off)',
  },
  {
    flag: '--remote-url',
    env: 'AITI_REMOTE_URL',
    key: 'remoteUrl',
    parse: PARSERS.url,
    help: "the remote listener's address as devices reach it, for the pairing QR code and notifications (e.g. https://laptop.tailnet.ts.net behind Tailscale Serve; default: the listener's own address)",
  },
  {
    flag: '--remote-pages',
    env: 'AITI_REMOTE_PAGES',
    key: 'remotePages',
    parse: PARSERS.bool,
    default: false,
    help: 'serve the page script and page routes on the remote listener too, for a browser on another machine (default: pages connect on this machine only)',
  },
  {
    flag: '--tls-cert',
    env: 'AITI_TLS_CERT',
    key: 'tlsCert',
    parse: PARSERS.string,
    help: 'PEM certificate: the remote listener speaks HTTPS (with --tls-key; e.g. from mkcert)',
  },
  {
    flag: '--tls-key',
    env: 'AITI_TLS_KEY',
    key: 'tlsKey',
    parse: PARSERS.string,
    help: 'PEM private key of --tls-cert',
  },
  {
    flag: '--notify',
    env: 'AITI_NOTIFY',
    key: 'notify',
    parse: PARSERS.url,
    help: 'an ntfy topic URL (https://ntfy.sh/<topic>): "2 asks waiting: claude-code" is published there, with a link to the remote window, when asks wait unanswered (never their text unless --notify-detail, never a token); whoever knows the topic reads and sends notices, so it is a secret: from the environment or --notify-file, never a flag',
    secret: { file: '--notify-file' },
  },
  {
    flag: '--notify-token',
    env: 'AITI_NOTIFY_TOKEN',
    key: 'notifyToken',
    parse: PARSERS.string,
    help: 'access token of a protected ntfy topic (sent as Authorization: Bearer to the ntfy server only); from the environment or --notify-file, never a flag',
    secret: { file: '--notify-file' },
  },
  {
    flag: '--notify-file',
    env: 'AITI_NOTIFY_FILE',
    key: 'notifyFile',
    parse: PARSERS.string,
    help: 'a file (keep it 0600) with the ntfy topic URL on its first line and, for a protected topic, its token on the second',
  },
  {
    flag: '--notify-detail',
    env: 'AITI_NOTIFY_DETAIL',
    key: 'notifyDetail',
    parse: PARSERS.bool,
    default: false,
    help: "put the asks' questions in the notification (they then pass through the ntfy server)",
  },
  {
    flag: '--notify-after',
    env: 'AITI_NOTIFY_AFTER',
    key: 'notifyAfterMs',
    parse: PARSERS.ms,
    default: 30_000,
    help: 'ms an ask waits unanswered before the notification (default {default})',
  },
  {
    flag: '--ping',
    env: 'AITI_PING',
    key: 'pingMs',
    parse: PARSERS.ms,
    default: 15_000,
    help: 'ms between keep-alive pings on the event streams (default {default})',
  },
] as const satisfies readonly AnyOptionSpec[];

export type Option = (typeof OPTIONS)[number];
type ValueOf<O> = O extends { parse: (raw: string, source: string) => infer T } ? T : never;
type Flat<T> = { [K in keyof T]: T[K] };

/** Bridge configuration, inferred from OPTIONS: an option with a default is always set, one without is optional. */
export type BridgeConfig = Flat<
  { [O in Option as O extends { default: unknown } ? O['key'] : never]: ValueOf<O> } & {
    [O in Option as O extends { default: unknown } ? never : O['key']]?: ValueOf<O>;
  } & {
    /** resource limits that differ from DEFAULT_LIMITS (bridge/limits.ts); not flags, for embedders and tests */
    limits?: Partial<Limits>;
  }
>;

/** Whether the flag takes a value (`--port 8777`); a yes/no flag alone means yes (`--mcp-auth`). */
export function takesValue(option: Option): boolean {
  return option.parse !== PARSERS.bool;
}

/** The configuration when no flag or variable is given: each option's default, computed ones from `env`. */
export function defaultConfig(env: NodeJS.ProcessEnv = process.env): BridgeConfig {
  const config: Partial<Record<keyof BridgeConfig, unknown>> = {};
  for (const option of OPTIONS)
    if ('default' in option) config[option.key] = defaultOf<BridgeConfig[keyof BridgeConfig]>(option, env);
  // every option with a default set its key just above; the others are optional in BridgeConfig
  return config as BridgeConfig;
}

function defaultOf<T>(option: { default: Readonly<T> | ((env: NodeJS.ProcessEnv) => T) }, env: NodeJS.ProcessEnv) {
  const value = option.default;
  if (typeof value === 'function') return value(env);
  // a list is copied, so one bridge's config never shares an array with another's
  return Array.isArray(value) ? [...value] : value;
}

/** The help line's text: `{default}` stands for the option's own default. */
export function helpOf(option: Option): string {
  return 'default' in option && typeof option.default !== 'function'
    ? option.help.replace('{default}', () => String(option.default))
    : option.help;
}

/** Sets one option's value: `parse` returns the type of `config[key]`, so no cast is needed. */
function apply<K extends keyof BridgeConfig>(
  config: BridgeConfig,
  option: { key: K; parse: (raw: string, source: string) => BridgeConfig[K] },
  raw: string,
  source: string,
) {
  config[option.key] = option.parse(raw, source);
}

/**
 * Resolves the configuration from argv (bridge flags only) and the environment.
 * Throws ConfigError with one line naming the bad value. Unknown flags are errors too.
 */
export function resolveConfig(argv: string[], env: NodeJS.ProcessEnv = process.env): BridgeConfig {
  const config = defaultConfig(env);
  for (const option of OPTIONS) {
    const raw = env[option.env];
    if (raw !== undefined && raw !== '') apply(config, option, raw, option.env);
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const option = OPTIONS.find((o) => o.flag === flag);
    if (!option) {
      const near = flag.startsWith('--')
        ? closest(
            flag,
            OPTIONS.map((o) => o.flag),
          )
        : undefined;
      throw new ConfigError(`unknown option "${arg}"${near ? `; did you mean ${near}?` : ''} (see aiti-bridge --help)`);
    }
    if ('secret' in option)
      throw new ConfigError(
        `${flag} is a secret, and a command line is read by every user of this machine (ps, /proc/<pid>/cmdline): set ${option.env}, or write it to a file and give ${option.secret.file} <path>`,
      );
    let raw = inline;
    if (raw === undefined) {
      if (!takesValue(option)) raw = 'true';
      else {
        raw = argv[++i];
        if (raw === undefined || raw.startsWith('--')) throw new ConfigError(`${flag} needs a value`);
      }
    }
    apply(config, option, raw, flag);
  }
  if (config.notifyFile) readNotifyFile(config, config.notifyFile);
  return config;
}

/** --notify-file: the topic URL on the first line, the token (optional) on the second. */
function readNotifyFile(config: BridgeConfig, path: string): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`--notify-file "${path}" cannot be read: ${(error as Error).message}`);
  }
  const [topic = '', token = ''] = text.split(/\r?\n/).map((line) => line.trim());
  config.notify = PARSERS.url(topic, `the first line of --notify-file "${path}"`);
  if (token) config.notifyToken = token;
}

export function configHelp(): string {
  const rows = OPTIONS.map(
    (o) => `  ${(o.flag + (takesValue(o) ? ' <value>' : '')).padEnd(26)} ${helpOf(o)} [${o.env}]`,
  );
  return rows.join('\n');
}
