// The GitHub workflows cannot run here (no runner): they are read as GitHub reads them, and what they rely on is
// checked — the job graph, the permissions, the secrets each step can do without, the files they name.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bridge.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
  if?: string;
}
interface Job {
  name?: string;
  needs?: string | string[];
  uses?: string;
  'runs-on'?: string;
  'timeout-minutes'?: number;
  permissions?: Record<string, string>;
  strategy?: { matrix?: { include?: Array<Record<string, string>>; os?: string[] } };
  env?: Record<string, string>;
  steps?: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflow = (name: string) => load(readFileSync(join(ROOT, '.github', 'workflows', name), 'utf8')) as Workflow;
const release = workflow('release.yml');
const ci = workflow('ci.yml');
const needs = (job: Job) => (job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs]);
const runs = (job: Job) => (job.steps ?? []).map((s) => s.run ?? '').join('\n');

/** Runs the release's signing step as the workflow does, with these secrets; returns its log and what it set. */
function signing(platform: string, secrets: Record<string, string> = {}) {
  const envFile = join(tempDir(), 'github-env');
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'release-signing.js'), platform], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', GITHUB_ENV: envFile, RUNNER_TEMP: tempDir(), ...secrets },
  });
  const set: Record<string, string> = {};
  const text = existsSync(envFile) ? readFileSync(envFile, 'utf8') : '';
  for (const [, name = '', delimiter = '', value = ''] of text.matchAll(/^(\w+)<<(\w+)\n([\s\S]*?)\n\2\n/gm)) {
    set[name] = value;
    expect(delimiter).toMatch(/^AITI_[0-9a-f]{16}$/);
  }
  return { status: run.status, log: run.stdout, set };
}

describe('the release workflow', () => {
  it('runs on a version tag only, reading the repository by default', () => {
    expect(release.on).toEqual({ push: { tags: ['v*'] } });
    expect(release.permissions).toEqual({ contents: 'read' });
  });

  it('checks the tag, tests on three OSes, builds the installers, runs the app, then releases and publishes', () => {
    const graph = Object.fromEntries(Object.entries(release.jobs).map(([id, job]) => [id, needs(job).sort()]));
    expect(graph).toEqual({
      version: [],
      test: ['version'],
      installers: ['test', 'version'],
      smoke: ['installers'],
      'github-release': ['installers', 'smoke', 'version'],
      npm: ['smoke', 'test', 'version'],
    });
    // the tests are CI's own jobs: Linux in full, macOS and Windows for the desktop
    expect(release.jobs.test?.uses).toBe('./.github/workflows/ci.yml');
    expect(ci.on).toHaveProperty('workflow_call');
    expect(ci.jobs.desktop?.strategy?.matrix?.os).toEqual(['macos-latest', 'windows-latest']);
    expect(runs(ci.jobs.linux ?? {})).toContain('.ci/run');
    expect(runs(release.jobs.version ?? {})).toContain("require('./package.json').version");
    for (const [id, job] of Object.entries({ ...release.jobs, ...ci.jobs })) {
      if (job.uses) continue;
      expect(job['timeout-minutes'], `${id} has a timeout`).toBeGreaterThan(0);
    }
  });

  it('builds AppImage and deb on Linux, the dmg on macOS and nsis on Windows, each on its own OS', () => {
    const builds = (release.jobs.installers?.strategy?.matrix?.include ?? []).map((m) => [m.os, m.platform, m.targets]);
    expect(builds).toEqual([
      ['ubuntu-24.04', 'linux', '--linux AppImage deb'],
      ['macos-latest', 'mac', '--mac dmg'],
      ['windows-latest', 'win', '--win nsis'],
    ]);
    expect(runs(release.jobs.installers ?? {})).toContain('npx electron-builder ${{ matrix.targets }} --publish never');
  });

  it('runs the desktop app for real from the clone, the AppImage and the installed deb', () => {
    const smoke = runs(release.jobs.smoke ?? {});
    expect(smoke).toContain('apt-get install -y -q xvfb x11-utils dbus libglib2.0-bin python3-gi');
    expect(smoke).toContain('xvfb-run -a node scripts/smoke-app.js\n');
    expect(smoke).toContain('xvfb-run -a node scripts/smoke-app.js --app "$(ls release/*.AppImage)"');
    expect(smoke).toContain('xvfb-run -a node scripts/smoke-app.js --app /usr/bin/aiti-bridge-desktop');
    expect(existsSync(join(ROOT, 'scripts', 'smoke-app.js'))).toBe(true);
  });

  it('gives write access only where it is used: the release job writes contents, the npm job gets an OIDC token', () => {
    const granted = Object.fromEntries(
      Object.entries(release.jobs)
        .filter(([, job]) => job.permissions)
        .map(([id, job]) => [id, job.permissions]),
    );
    expect(granted).toEqual({
      'github-release': { contents: 'write' },
      npm: { contents: 'read', 'id-token': 'write' },
    });
    expect(runs(release.jobs.npm ?? {})).toContain('npm publish --provenance --access public');
  });

  it('uses actions at a pinned major version', () => {
    for (const job of [...Object.values(release.jobs), ...Object.values(ci.jobs)]) {
      for (const step of job.steps ?? []) if (step.uses) expect(step.uses).toMatch(/^actions\/[\w-]+@v\d+$/);
    }
  });

  it('every secret is optional: each step given one says what it does without it', () => {
    const secretUses = Object.entries({ ...release.jobs, ...ci.jobs }).flatMap(([id, job]) =>
      (job.steps ?? []).flatMap((step) =>
        Object.entries(step.env ?? {})
          .filter(([, value]) => /secrets\./.test(value))
          .map(([name]) => ({ id, step, name })),
      ),
    );
    expect(secretUses.length).toBeGreaterThan(0);
    // secrets reach steps only through env, never a command line, an input or a job-wide env
    const text = readFileSync(join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8');
    expect(text.match(/secrets\./g)?.length).toBe(secretUses.length);
    for (const job of Object.values(release.jobs)) expect(JSON.stringify(job.env ?? {})).not.toContain('secrets.');
    for (const { id, step, name } of secretUses) {
      const steps = release.jobs[id]?.steps ?? [];
      const handled =
        step.run?.startsWith('node scripts/release-signing.js') ||
        steps.some((s) => new RegExp(`-[nz] "\\$${name}"`).test(s.run ?? ''));
      expect(handled, `${id} / ${step.name ?? step.run}: ${name} may be unset`).toBe(true);
    }
  });
});

describe('the signing step', () => {
  it('without secrets: says each build is unsigned, and keeps electron-builder from looking for an identity', () => {
    for (const platform of ['mac', 'win']) {
      const { status, log, set } = signing(platform);
      expect(status).toBe(0);
      expect(log).toMatch(/^::warning title=Unsigned (macOS|Windows) build::/m);
      expect(set).toEqual({ CSC_IDENTITY_AUTO_DISCOVERY: 'false' });
    }
    expect(signing('linux').log).toMatch(/^::notice title=Linux packages::/m);
  });

  it('with the macOS secrets: signs, writes the API key for notarization, and hands nothing to Windows', () => {
    const secrets = {
      MAC_CSC_LINK: 'MIIKcQIBAzCCCjc=',
      MAC_CSC_KEY_PASSWORD: 'p12-password',
      APPLE_API_KEY_BASE64: Buffer.from('-----BEGIN PRIVATE KEY-----\nMIGT\n-----END PRIVATE KEY-----\n').toString(
        'base64',
      ),
      APPLE_API_KEY_ID: 'ABC123DEFG',
      APPLE_API_ISSUER: '57246542-96fe-1a63-e053-0824d011072a',
    };
    const mac = signing('mac', secrets);
    expect(mac.log).toContain('::notice title=macOS notarization::');
    expect(mac.set).toMatchObject({
      CSC_LINK: secrets.MAC_CSC_LINK,
      CSC_KEY_PASSWORD: 'p12-password',
      APPLE_API_KEY_ID: 'ABC123DEFG',
    });
    expect(readFileSync(mac.set.APPLE_API_KEY ?? '', 'utf8')).toContain('BEGIN PRIVATE KEY');
    expect(mac.set.APPLE_API_KEY).toMatch(/AuthKey_ABC123DEFG\.p8$/);
    const win = signing('win', secrets);
    expect(win.set).toEqual({ CSC_IDENTITY_AUTO_DISCOVERY: 'false' });
    // signed but without the notarization key: says it will not be notarized
    const signedOnly = signing('mac', { MAC_CSC_LINK: 'x', MAC_CSC_KEY_PASSWORD: 'y' });
    expect(signedOnly.log).toMatch(/^::warning title=Not notarized::/m);
  });
});

describe('CI', () => {
  it('lints the commit messages of each push and pull request, and only theirs', () => {
    const job = ci.jobs.commits ?? {};
    const step = (job.steps ?? []).find((s) => s.run?.includes('scripts/commit-lint.js'));
    expect(step?.env?.BASE).toBe('${{ github.event.pull_request.base.sha || github.event.before }}');
    expect(step?.run).toContain('node scripts/commit-lint.js "$BASE..$GITHUB_SHA"');
    // a tag or a new branch has no earlier commit: nothing before the rule is judged
    expect(step?.run).toMatch(/\[ -z "\$BASE" \][^\n]*0{40}/);
    expect((job.steps ?? []).find((s) => s.uses?.startsWith('actions/checkout'))?.with).toEqual({ 'fetch-depth': 0 });
  });

  it('runs the desktop tests it names on macOS and Windows, each of which exists', () => {
    const files = runs(ci.jobs.desktop ?? {}).match(/test\/\S+\.test\.ts/g) ?? [];
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) expect(existsSync(join(ROOT, file)), file).toBe(true);
  });
});
