// The GitHub workflows cannot run here (no runner): they are read as GitHub reads them, and what they rely on is
// checked — the job graph, the permissions, the secrets each step can do without, the files they name.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bridge.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(join(ROOT, 'package.json'));

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

  it('checks the tag, tests on three OSes, builds, smoke-tests every installer, releases, and only then publishes to npm', () => {
    const graph = Object.fromEntries(Object.entries(release.jobs).map(([id, job]) => [id, needs(job).sort()]));
    expect(graph).toEqual({
      version: [],
      test: ['version'],
      installers: ['test', 'version'],
      'smoke-linux': ['installers'],
      'smoke-rpm': ['installers'],
      'smoke-desktop': ['installers'],
      'github-release': ['installers', 'smoke-desktop', 'smoke-linux', 'smoke-rpm', 'version'],
      // the npm package waits for the GitHub release its update note points people at
      npm: ['github-release', 'test', 'version'],
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

  it('builds each installer on its own system and arch: Linux x64 and arm64, macOS both arches, Windows both in one', () => {
    const builds = (release.jobs.installers?.strategy?.matrix?.include ?? []).map((m) => [m.os, m.platform, m.targets]);
    expect(builds).toEqual([
      ['ubuntu-24.04', 'linux', '--linux AppImage deb rpm --x64'],
      ['ubuntu-24.04-arm', 'linux', '--linux AppImage deb rpm --arm64'],
      ['macos-latest', 'mac', '--mac dmg zip'],
      ['windows-latest', 'win', '--win nsis --x64 --arm64'],
    ]);
    const build = runs(release.jobs.installers ?? {});
    expect(build).toContain('npx electron-builder ${{ matrix.targets }} --config "$EB_CONFIG" --publish never');
    expect(build).toContain('apt-get install -y -q rpm');
    // electron-updater's feeds and payloads travel with the installers to the release
    const uploaded = String(
      release.jobs.installers?.steps?.find((s) => s.uses?.startsWith('actions/upload'))?.with?.path,
    );
    for (const file of ['*.AppImage', '*.deb', '*.rpm', '*.dmg', '*.zip', '*.exe', '*.blockmap', 'latest*.yml']) {
      expect(uploaded).toContain(`release/${file}`);
    }
  });

  it('smoke-tests every installer it builds, on a runner of its system and arch', () => {
    const include = (id: string) => release.jobs[id]?.strategy?.matrix?.include ?? [];
    const built = include('installers');
    // Linux: each arch built is run from the clone, as the AppImage (X11 and Wayland), the deb, and the rpm on Fedora
    const linuxArches = built
      .filter((m) => m.platform === 'linux')
      .map((m) => /--(x64|arm64)/.exec(m.targets ?? '')?.[1]);
    expect(include('smoke-linux').map((m) => m.arch)).toEqual(linuxArches);
    expect(include('smoke-rpm').map((m) => m.arch)).toEqual(linuxArches);
    for (const job of ['smoke-linux', 'smoke-rpm']) {
      expect(include(job).map((m) => m.os)).toEqual(['ubuntu-24.04', 'ubuntu-24.04-arm']);
    }
    const linux = runs(release.jobs['smoke-linux'] ?? {});
    expect(linux).toContain('xvfb-run -a node scripts/smoke-app.js\n');
    expect(linux).toContain('xvfb-run -a node scripts/smoke-app.js --app "$(ls release/*.AppImage)"');
    expect(linux).toContain(
      'WAYLAND_DISPLAY=wayland-aiti node scripts/smoke-app.js --wayland --app "$(ls release/*.AppImage)"',
    );
    expect(linux).toContain('xvfb-run -a node scripts/smoke-app.js --app /usr/bin/aiti-bridge-desktop');
    expect(linux).toContain('test -f /usr/share/applications/dev.aiti.bridge.desktop');
    const rpm = runs(release.jobs['smoke-rpm'] ?? {});
    expect(rpm).toContain('dnf install -y -q "./$(ls release/*.rpm)"');
    expect(rpm).toContain('xvfb-run -a node scripts/smoke-app.js --app /usr/bin/aiti-bridge-desktop');
    // macOS: both arches of the dmg, each on its own arch; Windows: the one installer on x64 and on arm64
    const desktop = include('smoke-desktop').map((m) => [m.os, m.installer]);
    expect(desktop).toEqual([
      ['macos-latest', 'release/*-mac-arm64.dmg'],
      ['macos-15-intel', 'release/*-mac-x64.dmg'],
      ['windows-latest', 'release/*-win*.exe'],
      ['windows-11-arm', 'release/*-win*.exe'],
    ]);
    expect(runs(release.jobs['smoke-desktop'] ?? {})).toContain(
      'node scripts/smoke-installed.js --installer "$(ls ${{ matrix.installer }} | head -1)"',
    );
    for (const script of ['smoke-app.js', 'smoke-installed.js'])
      expect(existsSync(join(ROOT, 'scripts', script))).toBe(true);
  });

  it('the first npm publish needs NPM_TOKEN, and says so; later ones publish through trusted publishing', () => {
    const step = release.jobs.npm?.steps?.find((s) => s.name?.startsWith('How it publishes'));
    const script = step?.run ?? '';
    // the step as the runner runs it, with an npm that knows the package (or not)
    const check = (registryHas: boolean, token: string) => {
      const bin = tempDir('aiti-npm-');
      writeFileSync(
        join(bin, 'npm'),
        `#!/bin/sh\n${registryHas ? 'echo 0.1.0' : 'echo "npm error 404" >&2; exit 1'}\n`,
      );
      chmodSync(join(bin, 'npm'), 0o755);
      return spawnSync('bash', ['-c', script], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { PATH: `${bin}:${process.env.PATH ?? ''}`, NODE_AUTH_TOKEN: token },
      });
    };
    const first = check(false, '');
    expect(first.status).toBe(1);
    expect(first.stdout).toContain('::error title=First publish needs NPM_TOKEN::');
    expect(check(false, 'npm_abc').stdout).toContain('publishing with the NPM_TOKEN secret');
    const later = check(true, '');
    expect(later.status).toBe(0);
    expect(later.stdout).toContain('::notice title=No NPM_TOKEN::publishing through npm trusted publishing');
    // README says how: a token for the first version, the trusted publisher after it
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('NPM_TOKEN');
    expect(readme).toMatch(/first (npm )?(publish|version)/i);
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
      expect(set).toEqual({ CSC_IDENTITY_AUTO_DISCOVERY: 'false', EB_CONFIG: join(ROOT, 'electron-builder.yml') });
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
    expect(win.set).toEqual({ CSC_IDENTITY_AUTO_DISCOVERY: 'false', EB_CONFIG: join(ROOT, 'electron-builder.yml') });
    // signed but without the notarization key: says it will not be notarized
    const signedOnly = signing('mac', { MAC_CSC_LINK: 'x', MAC_CSC_KEY_PASSWORD: 'y' });
    expect(signedOnly.log).toMatch(/^::warning title=Not notarized::/m);
  });
});

describe('Windows signing through Azure Artifact Signing', () => {
  it('with the Azure secrets: a config extending electron-builder.yml with win.azureSignOptions, as electron-builder loads it', async () => {
    const secrets = {
      AZURE_TENANT_ID: '72f988bf-86f1-41af-91ab-2d7cd011db47',
      AZURE_CLIENT_ID: 'c1b5e2a4-0000-4000-8000-000000000001',
      AZURE_CLIENT_SECRET: 'client-secret',
      AZURE_SIGNING_ENDPOINT: 'https://eus.codesigning.azure.net',
      AZURE_SIGNING_ACCOUNT: 'aiti-signing',
      AZURE_CERTIFICATE_PROFILE: 'aiti-public',
      WIN_PUBLISHER_NAME: 'AITI Bridge contributors',
    };
    const win = signing('win', secrets);
    expect(win.log).toContain('::notice title=Windows signing::');
    // the login the TrustedSigning module takes from the environment; nothing else of the secrets leaves the step
    expect(Object.keys(win.set).sort()).toEqual([
      'AZURE_CLIENT_ID',
      'AZURE_CLIENT_SECRET',
      'AZURE_TENANT_ID',
      'EB_CONFIG',
    ]);
    const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      getConfig(dir: string, path: string | null, extra: null): Promise<Record<string, { [k: string]: unknown }>>;
      validateConfiguration(config: unknown, logger: unknown): Promise<void>;
    };
    const { DebugLogger } = require('builder-util/out/DebugLogger') as { DebugLogger: new (on: boolean) => unknown };
    const config = await getConfig(ROOT, win.set.EB_CONFIG ?? '', null);
    await validateConfiguration(config, new DebugLogger(false));
    expect(config.win).toEqual({
      target: 'nsis',
      icon: 'icon.ico',
      azureSignOptions: {
        endpoint: 'https://eus.codesigning.azure.net',
        codeSigningAccountName: 'aiti-signing',
        certificateProfileName: 'aiti-public',
        publisherName: 'AITI Bridge contributors',
      },
    });
    // the rest of electron-builder.yml is still there
    expect(config.linux?.target).toEqual(['AppImage', 'deb', 'rpm']);
    // a secret missing: unsigned, and the log names which
    const partial = signing('win', { ...secrets, AZURE_CERTIFICATE_PROFILE: '' });
    expect(partial.log).toMatch(/^::warning title=Unsigned Windows build::AZURE_CERTIFICATE_PROFILE not set/m);
    expect(partial.set.EB_CONFIG).toBe(join(ROOT, 'electron-builder.yml'));
  });
});

describe('Dependabot', () => {
  it('watches Electron every day, in its own pull request, with a commit scope of the list', () => {
    const config = load(readFileSync(join(ROOT, '.github', 'dependabot.yml'), 'utf8')) as {
      updates: Array<{
        'package-ecosystem': string;
        schedule: { interval: string };
        'commit-message': { prefix: string };
        groups?: Record<string, { patterns: string[] }>;
      }>;
    };
    const npm = config.updates.find((u) => u['package-ecosystem'] === 'npm');
    expect(npm?.schedule.interval).toBe('daily');
    expect(npm?.groups?.electron?.patterns).toContain('electron');
    for (const update of config.updates) expect(['deps', 'ci']).toContain(update['commit-message'].prefix);
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
