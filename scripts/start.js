#!/usr/bin/env node
// npm start: builds, then launches the desktop app where Electron can start. The electron package does not
// download its binary at install (and npm blocks install scripts), so a missing binary is fetched here, once, with
// Electron's own installer (which honours ELECTRON_MIRROR and electron_config_cache). Where the app cannot start
// (no display, the fetch failed, or it dies at start), says so in one line and runs the headless bridge instead,
// which prints the window URL with its token; an app that stopped after telling the human why (or because they
// chose Quit) is not replaced by one. Bridge flags pass through: npm start -- --port 0 --data-dir /tmp/x
// (--no-build skips the build).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(root, 'dist', 'electron', 'main.js');
/** an Electron that exits with an error this soon did not start (missing libraries, no GPU, sandbox …) */
const EARLY_EXIT_MS = 5000;
/**
 * How the app ends when it already told the human why in its own dialog (a bad setting, the port taken), or
 * when the human chose Quit there (it exits 0 then): the headless bridge must not start behind their back.
 * electron/main.ts exits with it.
 */
const EXIT_TOLD_THE_HUMAN = 2;
/** the binary is about 100 MB: past this, fetching it is given up (AITI_ELECTRON_FETCH_TIMEOUT_MS overrides) */
const FETCH_TIMEOUT_MS = Number(process.env.AITI_ELECTRON_FETCH_TIMEOUT_MS) || 120_000;

const args = process.argv.slice(2);
const build = !args.includes('--no-build');
const bridgeArgs = args.filter((arg) => arg !== '--no-build');

/** Why Electron cannot start here, or undefined when it looks able to (once its binary is fetched). */
function whyNoElectron(env = process.env) {
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return 'no display (DISPLAY and WAYLAND_DISPLAY are unset)';
  }
  if (!existsSync(MAIN)) return `the app is not built (${MAIN} is missing; run "npm run build")`;
  return undefined;
}

/**
 * Fetches the Electron binary with the electron package's own installer (install.js: @electron/get, the same
 * cache, mirror and checksums as electron's postinstall), bounded in time. Resolves with a reason when it failed.
 * Electron's installer loads an ES module with require(), which Node runs from 22.12, and from 20.17 behind
 * --experimental-require-module.
 */
function fetchElectron() {
  const installer = join(root, 'node_modules', 'electron', 'install.js');
  if (!existsSync(installer)) return Promise.resolve('the electron package is not installed (run "npm ci")');
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const flags = major > 22 || (major === 22 && minor >= 12) ? [] : ['--experimental-require-module', '--no-warnings'];
  if (major < 20 || (major === 20 && minor < 17)) {
    return Promise.resolve(`Electron's installer needs Node 20.17 or newer (this is ${process.version})`);
  }
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'));
  const from = process.env.ELECTRON_MIRROR ? ` from ${process.env.ELECTRON_MIRROR}` : '';
  console.error(
    `aiti-bridge: fetching the Electron ${version} binary for ${process.platform}-${process.arch}${from} (about 100 MB, once; up to ${FETCH_TIMEOUT_MS / 1000} s)…`,
  );
  const started = Date.now();
  // on a terminal, Electron's installer draws its own progress bar; elsewhere its errors are kept for one line
  const tty = Boolean(process.stderr.isTTY);
  const child = spawn(process.execPath, [...flags, installer], {
    cwd: root,
    stdio: ['ignore', 'inherit', tty ? 'inherit' : 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => (errors += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(`fetching the Electron binary took longer than ${FETCH_TIMEOUT_MS / 1000} s`);
    }, FETCH_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(`Electron's installer could not run (${error.message})`);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0 && electronBinary(process.env)) {
        console.error(`aiti-bridge: fetched Electron in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        resolve(undefined);
        return;
      }
      const why = firstErrorLine(errors) ?? (signal ? `signal ${signal}` : `exit code ${code}`);
      const hint = process.env.ELECTRON_MIRROR ? '' : '; ELECTRON_MIRROR names a mirror';
      resolve(`fetching the Electron binary failed (${why}${hint})`);
    });
  });
}

/** The message of the error Electron's installer printed (its stack's first line). */
function firstErrorLine(text) {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => /error/i.test(l));
  return line
    ? line
        .replace(/^(\w*Error): /, '')
        .replace(/\.$/, '')
        .slice(0, 300)
    : undefined;
}

/** The binary the electron package would run, without letting it download anything. */
function electronBinary(env) {
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  if (env.ELECTRON_OVERRIDE_DIST_PATH) return join(env.ELECTRON_OVERRIDE_DIST_PATH, name || 'electron');
  return name ? join(dir, 'dist', name) : undefined;
}

async function headless(reason) {
  console.error(`aiti-bridge: the desktop app cannot start here: ${reason}; running the headless bridge instead`);
  process.argv = [process.argv[0] ?? process.execPath, join(root, 'bin', 'aiti-bridge.js'), ...bridgeArgs];
  await import(new URL('../bin/aiti-bridge.js', import.meta.url).href);
}

/**
 * The flags Electron's sandbox needs here. Ubuntu 23.10+ (AppArmor) refuses unprivileged user namespaces to
 * programs without a profile, and the chrome-sandbox of node_modules is not setuid root, so Electron would abort
 * at start (electron/electron#42510): then it runs with --no-sandbox, the way electron-builder's AppImage launcher
 * decides (`unshare -Ur true` fails), and says so with the way to keep the sandbox.
 */
function sandboxArgs(binary) {
  if (process.platform !== 'linux') return [];
  const helper = join(dirname(binary), 'chrome-sandbox');
  try {
    const { uid, mode } = statSync(helper);
    if (uid === 0 && mode & 0o4000) return [];
  } catch {
    // no helper: user namespaces are the only way
  }
  if (spawnSync('unshare', ['-Ur', 'true'], { stdio: 'ignore', timeout: 5000 }).status === 0) return [];
  console.error(
    `aiti-bridge: this system refuses the user namespaces Electron's sandbox needs (Ubuntu 23.10+ restricts them) and ${helper} is not setuid root: starting Electron with --no-sandbox. To keep the sandbox: sudo chown root:root '${helper}' && sudo chmod 4755 '${helper}'`,
  );
  return ['--no-sandbox'];
}

/**
 * The signals that ask a program to stop (Ctrl+C, a service manager, a closed terminal). An Electron ended by one was
 * stopped, not failed: a stop sent to the whole process group may reach Electron, and end it, before our own handler
 * has run.
 */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Runs Electron; resolves with a reason to fall back if it fails to start, or never (it exits with Electron). */
function launch(binary) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(binary, [MAIN, ...sandboxArgs(binary), ...bridgeArgs], { stdio: 'inherit' });
    // a stop asked of us or of Electron ends Electron and us with it: never a headless bridge behind it
    let stopping = false;
    const forward = (signal) => {
      stopping = true;
      child.kill(signal);
    };
    for (const signal of STOP_SIGNALS) process.on(signal, forward);
    child.on('error', (error) => resolve(`Electron could not be run (${error.message})`));
    child.on('exit', (code, signal) => {
      for (const stop of STOP_SIGNALS) process.off(stop, forward);
      if (signal && STOP_SIGNALS.includes(signal)) {
        // end the way Electron did, so whoever ran npm start sees the stop it asked for
        process.kill(process.pid, signal);
        return;
      }
      const failed = code !== 0 && code !== EXIT_TOLD_THE_HUMAN;
      if (failed && !stopping && Date.now() - started < EARLY_EXIT_MS) {
        resolve(`Electron exited at start (${signal ? `signal ${signal}` : `code ${code}`})`);
        return;
      }
      process.exit(code ?? 1);
    });
  });
}

if (build) execFileSync(process.execPath, [join(root, 'scripts', 'build.js')], { cwd: root, stdio: 'inherit' });
let reason = whyNoElectron();
let binary = electronBinary(process.env);
if (!reason && !binary) {
  reason = await fetchElectron();
  binary = electronBinary(process.env);
}
if (!reason && binary && !existsSync(binary)) reason = `the Electron binary is missing at ${binary}`;
if (reason || !binary) await headless(reason ?? 'no Electron binary');
else {
  const failure = await launch(binary);
  await headless(failure);
}
