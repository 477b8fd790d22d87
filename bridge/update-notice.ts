import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** The npm package this CLI is; its dist-tags say which version is the latest. */
const PACKAGE = '@aiti-ai/aiti-bridge';
const DAY_MS = 24 * 60 * 60 * 1000;
const TIMEOUT_MS = 5000;

export interface UpdateNoticeDeps {
  /** the version running */
  current: string;
  env: NodeJS.ProcessEnv;
  /** where the last look is kept (updateStampFile) */
  stampFile: string;
  now(): number;
  fetch: typeof fetch;
  /** one line for the human (stderr) */
  write(line: string): void;
}

interface Stamp {
  checkedAt: number;
  latest?: string;
}

/** `~/.cache/aiti-bridge/update-check.json` ($XDG_CACHE_HOME when set): outside the data dir, shared by every bridge. */
export function updateStampFile(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'aiti-bridge', 'update-check.json');
}

/** Whether version `a` comes after `b` (x.y.z, a pre-release before its release). */
export function newer(a: string, b: string): boolean {
  const parse = (v: string) => {
    const [core = '', pre] = v.split('-', 2);
    return { parts: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d) return d > 0;
  }
  if (x.pre === y.pre) return false;
  if (!x.pre) return true;
  if (!y.pre) return false;
  return x.pre.localeCompare(y.pre, 'en', { numeric: true }) > 0;
}

/**
 * "A newer aiti-bridge is out" on stderr when the headless bridge starts: from the last look (kept a day), and
 * after a look at the registry once a day (npm's registry, or the one `npm_config_registry` names, as npx sets
 * it). Off with AITI_UPDATE_CHECK=0, NO_UPDATE_NOTIFIER or CI. Never fails and never holds anything up: a registry
 * that does not answer within 5 s is asked again the next day.
 */
export async function updateNotice(deps: UpdateNoticeDeps): Promise<void> {
  const { env } = deps;
  if (env.AITI_UPDATE_CHECK === '0' || env.NO_UPDATE_NOTIFIER || env.CI) return;
  let stamp: Stamp = { checkedAt: Number.NEGATIVE_INFINITY };
  try {
    stamp = { ...stamp, ...(JSON.parse(readFileSync(deps.stampFile, 'utf8')) as Stamp) };
  } catch {
    // never looked, or the file is not ours to read: look now
  }
  const say = (latest: string) =>
    deps.write(
      `aiti-bridge ${latest} is out (this is ${deps.current}): npm i -g ${PACKAGE}@latest, or npx ${PACKAGE}@latest (AITI_UPDATE_CHECK=0 turns this note off)`,
    );
  const told = stamp.latest && newer(stamp.latest, deps.current) ? stamp.latest : undefined;
  if (told) say(told);
  if (deps.now() - stamp.checkedAt < DAY_MS) return;
  let latest = stamp.latest;
  try {
    const registry = (env.npm_config_registry || 'https://registry.npmjs.org/').replace(/\/?$/, '/');
    const res = await deps.fetch(`${registry}-/package/${PACKAGE.replace('/', '%2f')}/dist-tags`, {
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
    if (res.ok) {
      const tags = (await res.json()) as { latest?: unknown };
      if (typeof tags.latest === 'string') latest = tags.latest;
    }
  } catch {
    // offline or slow: tomorrow
  }
  try {
    mkdirSync(dirname(deps.stampFile), { recursive: true });
    writeFileSync(deps.stampFile, JSON.stringify({ checkedAt: deps.now(), ...(latest ? { latest } : {}) }) + '\n');
  } catch {
    // a read-only cache only means looking again next time
  }
  if (latest && latest !== told && newer(latest, deps.current)) say(latest);
}
