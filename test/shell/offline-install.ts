import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
}

interface Lock {
  packages: Record<string, LockEntry>;
}

export interface PackedPackage {
  /** absolute path of the .tgz */
  tarball: string;
  /** the files it ships, as `npm pack --json` lists them */
  files: string[];
  integrity: string;
}

/**
 * `npm pack` as a release does it from a fresh clone after `npm ci`: the checkout's files (tracked and new, not
 * ignored: no dist/) copied to `dir/clone`, its node_modules linked in, then — as someone would after
 * `npm run bridge`, which builds dist/bridge without type declarations — the bridge step alone, then `npm pack`,
 * whose prepack must build everything the package ships. The tarball lands in `dir`.
 */
export function packFreshClone(dir: string): PackedPackage {
  const clone = join(dir, 'clone');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => file && existsSync(join(ROOT, file)));
  for (const file of files) cpSync(join(ROOT, file), join(clone, file), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
  execFileSync(process.execPath, ['scripts/build.js', 'bridge'], { cwd: clone, stdio: 'ignore' });
  const npm = spawnSync('npm', ['pack', '--pack-destination', dir, '--json', '--silent'], {
    cwd: clone,
    encoding: 'utf8',
    env: { ...process.env, npm_config_loglevel: 'error' },
  });
  if (npm.status !== 0) throw new Error(`npm pack failed (${npm.status ?? npm.signal}):\n${npm.stderr}`);
  const out = npm.stdout;
  const [packed] = JSON.parse(out) as Array<{ filename: string; integrity: string; files: Array<{ path: string }> }>;
  if (!packed) throw new Error(`npm pack printed no package: ${out}`);
  return { tarball: join(dir, packed.filename), files: packed.files.map((f) => f.path), integrity: packed.integrity };
}

/** The lock key a package at `from` gets `name` from, by Node's lookup (nearest node_modules first). */
function resolveIn(lock: Lock, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const key = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[key]) return key;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

/** The lock entries `roots` need (from the repo root), each with its own dependencies, transitively. */
function closure(lock: Lock, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (from: string, name: string, optional: boolean) => {
    const key = resolveIn(lock, from, name);
    if (!key) {
      if (optional) return;
      throw new Error(`package-lock.json has no entry for ${name} (needed by ${from || 'the root'})`);
    }
    if (seen.has(key)) return;
    seen.add(key);
    const entry = lock.packages[key] ?? {};
    for (const dep of Object.keys(entry.dependencies ?? {})) visit(key, dep, false);
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) visit(key, dep, true);
    for (const dep of Object.keys(entry.peerDependencies ?? {})) {
      visit(key, dep, Boolean(entry.peerDependenciesMeta?.[dep]?.optional));
    }
  };
  for (const name of roots) visit('', name, false);
  return seen;
}

/**
 * Installs the packed package into `dir` the way a user's project would hold it, without the network: a lock that
 * pins the tarball and, for its dependencies (and `devPackages`, e.g. vite and typescript for a type check), the
 * very versions this checkout's package-lock.json resolved, so `npm ci --offline` finds every tarball in the npm
 * cache the checkout's own `npm ci` filled. (A plain `npm install --offline <tarball>` needs the registry's
 * metadata, which `npm ci` never fetches, so it fails on a clean machine.) Returns npm's output.
 */
export function installOffline(dir: string, packed: PackedPackage, devPackages: string[]): string {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    dependencies: Record<string, string>;
  };
  const wanted = Object.keys(pkg.dependencies);
  const devDependencies = Object.fromEntries(
    devPackages.map((name) => [name, lock.packages[`node_modules/${name}`]?.version ?? '*']),
  );
  const manifest = {
    name: 'aiti-install-check',
    version: '1.0.0',
    private: true,
    type: 'module',
    dependencies: { [pkg.name]: `file:${packed.tarball}` },
    devDependencies,
  };
  const packages: Record<string, LockEntry> = {
    '': { name: manifest.name, version: manifest.version, dependencies: manifest.dependencies, devDependencies },
    [`node_modules/${pkg.name}`]: {
      version: pkg.version,
      resolved: `file:${packed.tarball}`,
      integrity: packed.integrity,
      dependencies: pkg.dependencies,
      bin: { 'aiti-bridge': 'bin/aiti-bridge.js' },
    },
  };
  for (const key of closure(lock, [...wanted, ...devPackages])) {
    const { dev: _dev, devOptional: _devOptional, ...entry } = lock.packages[key] ?? {};
    packages[key] = entry;
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(
    join(dir, 'package-lock.json'),
    JSON.stringify({ name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages }),
  );
  const npm = spawnSync('npm', ['ci', '--offline', '--no-audit', '--no-fund'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, npm_config_loglevel: 'warn', npm_config_update_notifier: 'false' },
  });
  const output = `${npm.stdout}${npm.stderr}`;
  if (npm.status !== 0) throw new Error(`npm ci --offline failed (${npm.status ?? npm.signal}):\n${output}`);
  return output;
}
