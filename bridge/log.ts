/** One small logger with namespaces. stdout belongs to the protocol (the stdio shim), so every line goes to stderr. */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  error(message: string, ...rest: unknown[]): void;
  child(namespace: string): Logger;
}

function levelFromEnv(): LogLevel {
  const value = process.env.AITI_LOG;
  return value && value in RANK ? (value as LogLevel) : 'info';
}

export function createLogger(namespace = 'aiti', level: LogLevel = levelFromEnv()): Logger {
  const write =
    (at: Exclude<LogLevel, 'silent'>) =>
    (message: string, ...rest: unknown[]) => {
      if (RANK[at] < RANK[level]) return;
      const extra = rest.map((r) => (r instanceof Error ? (r.stack ?? r.message) : String(r))).join(' ');
      process.stderr.write(`[${namespace}] ${at === 'info' ? '' : at + ': '}${message}${extra ? ' ' + extra : ''}\n`);
    };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (name) => createLogger(`${namespace}:${name}`, level),
  };
}
