#!/usr/bin/env node
// npm start: builds, then launches the desktop app where Electron can start. Where it cannot (no display, the
// binary was never downloaded, or it dies at start), says so in one line and runs the headless bridge instead,
// which prints the window URL with its token. Bridge flags pass through: npm start -- --port 0 --data-dir /tmp/x
// (--no-build skips the build).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(root, 'dist', 'electron', 'main.js');
/** an Electron that exits with an error this soon did not start (missing libraries, no GPU, sandbox …) */
const EARLY_EXIT_MS = 5000;

const args = process.argv.slice(2);
const build = !args.includes('--no-build');
const bridgeArgs = args.filter((arg) => arg !== '--no-build');

/** Why Electron cannot start here, or undefined when it looks able to. */
function whyNoElectron(env = process.env) {
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return 'no display (DISPLAY and WAYLAND_DISPLAY are unset)';
  }
  const binary = electronBinary(env);
  if (!binary) {
    return 'the Electron binary is not installed (it is downloaded on first run; run "npx install-electron" where the network allows)';
  }
  if (!existsSync(binary)) return `the Electron binary is missing at ${binary}`;
  if (!existsSync(MAIN)) return `the app is not built (${MAIN} is missing; run "npm run build")`;
  return undefined;
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

/** Runs Electron; resolves with a reason to fall back if it fails to start, or never (it exits with Electron). */
function launch(binary) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(binary, [MAIN, ...bridgeArgs], { stdio: 'inherit' });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (error) => resolve(`Electron could not be run (${error.message})`));
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      const failed = code !== 0;
      if (failed && Date.now() - started < EARLY_EXIT_MS) {
        resolve(`Electron exited at start (${signal ? `signal ${signal}` : `code ${code}`})`);
        return;
      }
      process.exit(code ?? 1);
    });
  });
}

if (build) execFileSync(process.execPath, [join(root, 'scripts', 'build.js')], { cwd: root, stdio: 'inherit' });
const reason = whyNoElectron();
const binary = electronBinary(process.env);
if (reason || !binary) await headless(reason ?? 'no Electron binary');
else {
  const failure = await launch(binary);
  await headless(failure);
}
