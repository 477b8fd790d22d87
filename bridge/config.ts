import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Limits } from './limits.js';

/** Bridge configuration (README "Configuration"): flag > environment > default. */
export interface BridgeConfig {
  port: number;
  host: string;
  /** files live under `<dataDir>/aiti-bridge/` */
  dataDir: string;
  /** ms a page/agent registration and its outbox are kept after disconnect */
  ttlMs: number;
  /** editor command for open_file; `{file}`, `{line}` and `{column}` are replaced; run without a shell */
  openCmd: string;
  /** the human's token; generated into the data dir when absent */
  token?: string;
  mcpAuth: boolean;
  /** extra browser origins allowed on the MCP and window endpoints */
  allowedOrigins: string[];
  /** extra Host names accepted besides loopback names (for a bridge bound to a LAN address) */
  allowedHosts: string[];
  /** when set, open_file and file_stat reach only paths inside this directory */
  projectRoot?: string;
  /** refuse pages that connect without a secret (the legacy path) */
  refuseLegacy: boolean;
  /** default timeout of a page command */
  commandTimeoutMs: number;
  /** SSE keep-alive interval */
  pingMs: number;
  /**
   * a Unix socket the bridge listens on too (besides TCP), in a directory only this user may enter (0700): on a
   * machine with other users, agents reach the bridge through it (`AITI_BRIDGE_URL=unix:<path>`)
   */
  socket?: string;
  /**
   * the remote listener (`--remote [HOST:]PORT`): a second server where every request needs a device token or an
   * agent token, whatever its peer address, Host or Origin (README "Away from the desk"); off when absent
   */
  remote?: ListenAddress;
  /** the address devices and notifications are sent to (a tunnel's, e.g. https://laptop.tailnet.ts.net) */
  remoteUrl?: string;
  /** serve the page routes on the remote listener too (a browser on another machine) */
  remotePages: boolean;
  /** PEM files: the remote listener speaks HTTPS with them */
  tlsCert?: string;
  tlsKey?: string;
  /** an ntfy topic URL: "2 asks waiting: claude-code" is published there when nobody answers for a while */
  notify?: string;
  /** sent as Authorization: Bearer to the ntfy server (a protected topic) */
  notifyToken?: string;
  /** a file holding the topic URL (first line) and the token (second line, optional): kept off the command line */
  notifyFile?: string;
  /** put the asks' questions in the notification (by default only how many and whose) */
  notifyDetail: boolean;
  /** ms an ask waits unanswered before the notification goes out */
  notifyAfterMs: number;
  /** resource limits that differ from DEFAULT_LIMITS (bridge/limits.ts); not flags, for embedders and tests */
  limits?: Partial<Limits>;
}

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

export function defaultConfig(env: NodeJS.ProcessEnv = process.env): BridgeConfig {
  return {
    port: DEFAULT_PORT,
    host: '127.0.0.1',
    dataDir: defaultDataDir(env),
    ttlMs: 600_000,
    openCmd: 'code --goto {file}:{line}',
    mcpAuth: sharedMachine(env) !== undefined,
    allowedOrigins: [],
    allowedHosts: [],
    refuseLegacy: false,
    commandTimeoutMs: 30_000,
    pingMs: 15_000,
    remotePages: false,
    notifyDetail: false,
    notifyAfterMs: 30_000,
  };
}

type Kind = 'port' | 'string' | 'bool' | 'list' | 'ms' | 'address' | 'url';

/** One flag/env pair. `parse` returns the config value's own type, so the table is checked against BridgeConfig. */
interface OptionOf<K extends keyof BridgeConfig> {
  flag: string;
  env?: string;
  key: K;
  /** how the value is written (a bool flag takes no value) */
  kind: Kind;
  parse: (raw: string, source: string) => BridgeConfig[K];
  help: string;
  /**
   * a secret: refused as a flag, where every user of the machine reads it in /proc/<pid>/cmdline (`ps`); taken
   * from its environment variable or its file only
   */
  secret?: { file: string };
}
export type Option = { [K in keyof BridgeConfig]-?: OptionOf<K> }[keyof BridgeConfig];

/** The parser of each kind; an option's `parse` is the one of its `kind` (test/foundation/cli.test.ts checks). */
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
} satisfies Record<Kind, (raw: string, source: string) => unknown>;

export const OPTIONS: Option[] = [
  {
    flag: '--port',
    env: 'AITI_BRIDGE_PORT',
    key: 'port',
    kind: 'port',
    parse: PARSERS.port,
    help: 'listen port; 0 picks a free one (default 8777)',
  },
  {
    flag: '--host',
    env: 'AITI_BRIDGE_HOST',
    key: 'host',
    kind: 'string',
    parse: PARSERS.string,
    help: 'listen address (default 127.0.0.1); whatever it is, only programs on this machine are served: other machines get 403 (reach the bridge from elsewhere through an SSH tunnel)',
  },
  {
    flag: '--data-dir',
    env: 'AITI_BRIDGE_DATA_DIR',
    key: 'dataDir',
    kind: 'string',
    parse: PARSERS.string,
    help: 'files live under <dir>/aiti-bridge/ (default: the OS app-data dir)',
  },
  {
    flag: '--token',
    env: 'AITI_BRIDGE_TOKEN',
    key: 'token',
    kind: 'string',
    parse: PARSERS.string,
    help: "the human's token (default: generated once into <data-dir>/aiti-bridge/token); a flag shows in ps to every user of the machine: prefer the token file or AITI_BRIDGE_TOKEN",
  },
  {
    flag: '--mcp-auth',
    env: 'AITI_MCP_AUTH',
    key: 'mcpAuth',
    kind: 'bool',
    parse: PARSERS.bool,
    help: 'require Authorization: Bearer <agent token> on the MCP endpoint (<data-dir>/aiti-bridge/agent-token; it cannot answer asks); on by default where SSH_CONNECTION, CODESPACES or REMOTE_CONTAINERS is set (other users share that loopback): --mcp-auth=false turns it off',
  },
  {
    flag: '--allowed-origins',
    env: 'AITI_ALLOWED_ORIGINS',
    key: 'allowedOrigins',
    kind: 'list',
    parse: PARSERS.list,
    help: 'comma-separated browser origins allowed on the MCP and window endpoints',
  },
  {
    flag: '--allowed-hosts',
    env: 'AITI_ALLOWED_HOSTS',
    key: 'allowedHosts',
    kind: 'list',
    parse: PARSERS.list,
    help: 'comma-separated Host names accepted besides loopback (local names that resolve to this machine, e.g. myapp.test)',
  },
  {
    flag: '--refuse-legacy',
    env: 'AITI_REFUSE_LEGACY',
    key: 'refuseLegacy',
    kind: 'bool',
    parse: PARSERS.bool,
    help: 'refuse pages that connect without a secret',
  },
  {
    flag: '--ttl',
    env: 'AITI_BRIDGE_TTL',
    key: 'ttlMs',
    kind: 'ms',
    parse: PARSERS.ms,
    help: 'ms a page/agent registration is kept after disconnect (default 600000)',
  },
  {
    flag: '--project-root',
    env: 'AITI_PROJECT_ROOT',
    key: 'projectRoot',
    kind: 'string',
    parse: PARSERS.string,
    help: 'confine open_file and file_stat to paths inside this directory (default: no confinement)',
  },
  {
    flag: '--open-cmd',
    env: 'AITI_OPEN_CMD',
    key: 'openCmd',
    kind: 'string',
    parse: PARSERS.string,
    help: 'editor command for open_file (default "code --goto {file}:{line}")',
  },
  {
    flag: '--command-timeout',
    env: 'AITI_COMMAND_TIMEOUT',
    key: 'commandTimeoutMs',
    kind: 'ms',
    parse: PARSERS.ms,
    help: 'ms the bridge waits for a page to answer a command without its own timeout (default 30000)',
  },
  {
    flag: '--socket',
    env: 'AITI_BRIDGE_SOCKET',
    key: 'socket',
    kind: 'string',
    parse: PARSERS.string,
    help: 'also listen on this Unix socket, in a directory only you may enter (made 0700 when missing); agents then use AITI_BRIDGE_URL=unix:<path> (default: none)',
  },
  {
    flag: '--remote',
    env: 'AITI_REMOTE',
    key: 'remote',
    kind: 'address',
    parse: PARSERS.address,
    help: 'also listen on [HOST:]PORT (HOST 127.0.0.1 by default, for a tunnel) for devices and agents elsewhere: every request there needs a device token (pair in the window) or an agent token (aiti-bridge agent-token create NAME) (default: off)',
  },
  {
    flag: '--remote-url',
    env: 'AITI_REMOTE_URL',
    key: 'remoteUrl',
    kind: 'url',
    parse: PARSERS.url,
    help: "the remote listener's address as devices reach it, for the pairing QR code and notifications (e.g. https://laptop.tailnet.ts.net behind Tailscale Serve; default: the listener's own address)",
  },
  {
    flag: '--remote-pages',
    env: 'AITI_REMOTE_PAGES',
    key: 'remotePages',
    kind: 'bool',
    parse: PARSERS.bool,
    help: 'serve the page script and page routes on the remote listener too, for a browser on another machine (default: pages connect on this machine only)',
  },
  {
    flag: '--tls-cert',
    env: 'AITI_TLS_CERT',
    key: 'tlsCert',
    kind: 'string',
    parse: PARSERS.string,
    help: 'PEM certificate: the remote listener speaks HTTPS (with --tls-key; e.g. from mkcert)',
  },
  {
    flag: '--tls-key',
    env: 'AITI_TLS_KEY',
    key: 'tlsKey',
    kind: 'string',
    parse: PARSERS.string,
    help: 'PEM private key of --tls-cert',
  },
  {
    flag: '--notify',
    env: 'AITI_NOTIFY',
    key: 'notify',
    kind: 'url',
    parse: PARSERS.url,
    help: 'an ntfy topic URL (https://ntfy.sh/<topic>): "2 asks waiting: claude-code" is published there, with a link to the remote window, when asks wait unanswered (never their text unless --notify-detail, never a token); whoever knows the topic reads and sends notices, so it is a secret: from the environment or --notify-file, never a flag',
    secret: { file: '--notify-file' },
  },
  {
    flag: '--notify-token',
    env: 'AITI_NOTIFY_TOKEN',
    key: 'notifyToken',
    kind: 'string',
    parse: PARSERS.string,
    help: 'access token of a protected ntfy topic (sent as Authorization: Bearer to the ntfy server only); from the environment or --notify-file, never a flag',
    secret: { file: '--notify-file' },
  },
  {
    flag: '--notify-file',
    env: 'AITI_NOTIFY_FILE',
    key: 'notifyFile',
    kind: 'string',
    parse: PARSERS.string,
    help: 'a file (keep it 0600) with the ntfy topic URL on its first line and, for a protected topic, its token on the second',
  },
  {
    flag: '--notify-detail',
    env: 'AITI_NOTIFY_DETAIL',
    key: 'notifyDetail',
    kind: 'bool',
    parse: PARSERS.bool,
    help: "put the asks' questions in the notification (they then pass through the ntfy server)",
  },
  {
    flag: '--notify-after',
    env: 'AITI_NOTIFY_AFTER',
    key: 'notifyAfterMs',
    kind: 'ms',
    parse: PARSERS.ms,
    help: 'ms an ask waits unanswered before the notification (default 30000)',
  },
  {
    flag: '--ping',
    env: 'AITI_PING',
    key: 'pingMs',
    kind: 'ms',
    parse: PARSERS.ms,
    help: 'ms between keep-alive pings on the event streams (default 15000)',
  },
];

/** Sets one option's value: `parse` returns the type of `config[key]`, so no cast is needed. */
function apply<K extends keyof BridgeConfig>(config: BridgeConfig, option: OptionOf<K>, raw: string, source: string) {
  config[option.key] = option.parse(raw, source);
}

/**
 * Resolves the configuration from argv (bridge flags only) and the environment.
 * Throws ConfigError with one line naming the bad value. Unknown flags are errors too.
 */
export function resolveConfig(argv: string[], env: NodeJS.ProcessEnv = process.env): BridgeConfig {
  const config = defaultConfig(env);
  for (const option of OPTIONS) {
    const raw = option.env ? env[option.env] : undefined;
    if (raw !== undefined && raw !== '') apply(config, option, raw, option.env ?? option.flag);
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const option = OPTIONS.find((o) => o.flag === flag);
    if (!option) throw new ConfigError(`unknown option "${arg}" (see aiti-bridge --help)`);
    if (option.secret)
      throw new ConfigError(
        `${flag} is a secret, and a command line is read by every user of this machine (ps, /proc/<pid>/cmdline): set ${option.env ?? 'its environment variable'}, or write it to a file and give ${option.secret.file} <path>`,
      );
    let raw = inline;
    if (raw === undefined) {
      if (option.kind === 'bool') raw = 'true';
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
    (o) => `  ${(o.flag + (o.kind === 'bool' ? '' : ' <value>')).padEnd(26)} ${o.help}${o.env ? ` [${o.env}]` : ''}`,
  );
  return rows.join('\n');
}
