import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PORT, defaultDataDir } from './config.js';
import { replaceFile } from './private-files.js';
import { isRunning } from './process-alive.js';

/**
 * What a running bridge writes into its data dir (`<data-dir>/aiti-bridge/running.json`, 0600) once it listens,
 * and removes when it closes: where it listens, so the Vite plugin, the shim, `call` and `agent-token` find a
 * bridge started on another port without being told. A bridge killed with SIGKILL leaves it behind: a record
 * whose process is gone is ignored.
 */
export interface RunningRecord {
  pid: number;
  /** the local listener, e.g. http://127.0.0.1:8777 */
  url: string;
  /** the remote listener (--remote): where agents elsewhere reach it (--remote-url, else its own address) */
  remote?: { url: string; port: number };
  version: string;
  startedAt: string;
}

export const RUNNING_FILE = 'running.json';

/** `<data-dir>/aiti-bridge/running.json`. */
export function runningFile(dataDir: string): string {
  return join(dataDir, 'aiti-bridge', RUNNING_FILE);
}

/** Writes the record (off the main thread, fsynced); returns what removes it again (only while it is still this process's). */
export async function writeRunningRecord(dataDir: string, record: RunningRecord): Promise<() => void> {
  const file = runningFile(dataDir);
  await replaceFile(file, JSON.stringify(record) + '\n', `could not write ${RUNNING_FILE}`);
  return () => {
    if (readRunningRecord(dataDir)?.pid === record.pid) rmSync(file, { force: true });
  };
}

/** The record of a bridge that runs now, or undefined (none, unreadable, or its process is gone). */
export function readRunningRecord(dataDir: string): RunningRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(runningFile(dataDir), 'utf8'));
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object') return undefined;
  const record = parsed as Partial<RunningRecord>;
  if (typeof record.pid !== 'number' || typeof record.url !== 'string' || !/^https?:\/\//.test(record.url))
    return undefined;
  return isRunning(record.pid) ? (record as RunningRecord) : undefined;
}

/** Where the bridge was found, and how: said to the person so a wrong guess is visible. */
export interface LocatedBridge {
  url: string;
  /** e.g. "AITI_BRIDGE_URL", "the running bridge's record in /home/a/.config/aiti-bridge/running.json" */
  from: string;
  /** the running bridge's record, when that is where the URL came from, or when it agrees with it */
  record?: RunningRecord;
}

/**
 * The one rule every client of the bridge follows: an explicit flag (or option), else AITI_BRIDGE_URL, else the
 * running bridge's own record in the data dir (--data-dir, AITI_BRIDGE_DATA_DIR, or the default one), else
 * http://127.0.0.1:8777.
 */
export function locateBridge(options: {
  env: NodeJS.ProcessEnv;
  /** the flag's value, and how to name it ("--port", "bridgeUrl") */
  flag?: { url: string; name: string };
  /** the data dir to read the record from (default: AITI_BRIDGE_DATA_DIR, else the OS app-data dir) */
  dataDir?: string;
}): LocatedBridge {
  const trim = (url: string) => url.replace(/(?<!\/)\/+$/, '');
  if (options.flag) return { url: trim(options.flag.url), from: options.flag.name };
  const fromEnv = options.env.AITI_BRIDGE_URL?.trim();
  if (fromEnv) return { url: trim(fromEnv), from: 'AITI_BRIDGE_URL' };
  const dataDir = options.dataDir ?? (options.env.AITI_BRIDGE_DATA_DIR?.trim() || defaultDataDir(options.env));
  const record = readRunningRecord(dataDir);
  if (record)
    return {
      url: record.url,
      from: `the running bridge's record ${runningFile(dataDir)} (pid ${record.pid})`,
      record,
    };
  return {
    url: `http://127.0.0.1:${DEFAULT_PORT}`,
    from: `the default: no running bridge recorded in ${runningFile(dataDir)}`,
  };
}
