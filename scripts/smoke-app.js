#!/usr/bin/env node
// The real-app smoke test: the desktop app started for real on an X display (Xvfb in the release workflow), the
// way a person starts it, and checked by what a person would see. The app runs from this clone through npm start's
// launcher (scripts/start.js, with its sandbox probe), or from an installed binary or AppImage (--app <path>),
// with a fresh HOME and a private D-Bus session whose tray host (scripts/smoke/sni-watcher.py) takes its icon:
//   1. the bridge answers on its port;  2. the window "AITI Bridge" is on the screen;
//   3. the tray icon is registered, and counts an agent's open ask;  4. quitting closes it all and answers the ask.
// Usage: xvfb-run -a node scripts/smoke-app.js [--app <executable>]   (--check: only say whether it can run here)
//        WAYLAND_DISPLAY=… node scripts/smoke-app.js --wayland --app <…>: the app as a native Wayland client (the
//        release runs it in a headless Weston); there is no X tree to find the window in, so step 2 is skipped.
// Needs: Linux, a display, an Electron binary (node node_modules/electron/install.js) or --app, and the commands
// xwininfo (x11-utils), dbus-daemon and gdbus (dbus, libglib2.0-bin), ss (iproute2), python3 with python3-gi.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const appIndex = args.indexOf('--app');
const appPath = appIndex === -1 ? undefined : args[appIndex + 1];
const wayland = args.includes('--wayland');
const STEP_MS = 60_000;

const has = (command, probe = ['--version']) => spawnSync(command, probe, { stdio: 'ignore' }).status === 0;

/** Why the smoke test cannot run here, or undefined. */
function whyNot() {
  if (process.platform !== 'linux') return `it runs on Linux (this is ${process.platform})`;
  if (appPath && !existsSync(appPath)) return `--app ${appPath} does not exist`;
  if (!appPath) {
    const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
    const binary =
      existsSync(pathFile) && join(root, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8'));
    if (!binary || !existsSync(binary)) {
      return 'no Electron binary in node_modules/electron/dist (fetch it with "node node_modules/electron/install.js")';
    }
    if (!existsSync(join(root, 'dist', 'electron', 'main.js'))) return 'the app is not built (run "npm run build")';
  }
  if (wayland && !process.env.WAYLAND_DISPLAY) return 'no Wayland display (WAYLAND_DISPLAY is unset)';
  if (!wayland && !process.env.DISPLAY) return 'no X display (DISPLAY is unset): run it under "xvfb-run -a"';
  for (const [command, probe, pkg] of [
    ...(wayland ? [] : [['xwininfo', ['-version'], 'x11-utils']]),
    ['dbus-daemon', ['--version'], 'dbus'],
    ['gdbus', ['help'], 'libglib2.0-bin'],
    ['ss', ['-V'], 'iproute2'],
    ['python3', ['-c', 'from gi.repository import Gio'], 'python3-gi'],
  ]) {
    if (!has(command, probe)) return `${command} is missing (install ${pkg})`;
  }
  return undefined;
}

const why = whyNot();
if (args.includes('--check')) {
  console.log(why ?? 'ready');
  process.exit(why ? 2 : 0);
}
if (why) {
  console.error(`smoke: cannot run here: ${why}`);
  process.exit(2);
}

const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');

const work = mkdtempSync(join(tmpdir(), 'aiti-smoke-'));
const children = [];
let output = '';
const started = (child, name) => {
  children.push(child);
  child.stdout?.on('data', (chunk) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk) => (output += chunk.toString()));
  child.on('error', (error) => (output += `${name}: ${error.message}\n`));
  return child;
};
const stopAll = () => {
  for (const child of children.reverse()) {
    try {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  rmSync(work, { recursive: true, force: true });
};
const fail = (what) => {
  console.error(
    `smoke: ✘ ${what}\n--- the app's output (last 60 lines) ---\n${output.split('\n').slice(-60).join('\n')}`,
  );
  stopAll();
  process.exit(1);
};
const pass = (what) => console.log(`smoke: ✔ ${what}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check, what, ms = STEP_MS) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (output.includes('running the headless bridge instead'))
      fail(`${what}: the app fell back to the headless bridge`);
    if (Date.now() > deadline) fail(`${what} (not within ${ms / 1000} s)`);
    await sleep(250);
  }
}
const run = (command, argv, env = process.env) => spawnSync(command, argv, { encoding: 'utf8', env });

// a private session bus with a tray host on it, as a KDE or AppIndicator panel has
started(spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { detached: true }), 'dbus');
const busAddress = (await until(() => /^(unix:\S+)/m.exec(output)?.[1], 'the session bus')).trim();
const busEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: busAddress };
const watcher = spawn('python3', [join(root, 'scripts', 'smoke', 'sni-watcher.py')], {
  env: busEnv,
  detached: true,
  stdio: ['ignore', 'pipe', 'pipe'],
});
children.push(watcher);
let registrations = '';
watcher.stdout.on('data', (chunk) => (registrations += chunk.toString()));
watcher.stderr.on('data', (chunk) => (output += `sni-watcher: ${chunk}`));
await until(() => registrations.includes('"watching"'), 'the tray host on the session bus');

const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});
const origin = `http://127.0.0.1:${port}`;
const home = join(work, 'home');
const dataDir = join(work, 'data');
const env = { ...busEnv, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), AITI_LOG: 'info' };
if (wayland) {
  // Wayland only: without an X display Electron cannot fall back to XWayland unnoticed
  delete env.DISPLAY;
  env.XDG_SESSION_TYPE = 'wayland';
}
const bridgeArgs = [...(wayland ? ['--ozone-platform=wayland'] : []), '--port', String(port), '--data-dir', dataDir];
const app = appPath
  ? spawn(appPath, bridgeArgs, { env, detached: true })
  : spawn(process.execPath, [join(root, 'scripts', 'start.js'), '--no-build', ...bridgeArgs], { env, detached: true });
started(app, 'the app');
console.log(`smoke: started ${appPath ?? 'the app from this clone (npm start)'} on ${origin}`);

// 1. the bridge
const version = await until(async () => {
  try {
    const health = await (await fetch(`${origin}/bridge/health`)).json();
    return health.ok && health.version;
  } catch {
    return undefined;
  }
}, 'the bridge to answer');
pass(`the bridge answers on ${origin} (aiti-bridge ${version})`);

// 2. the window
const windows = () => (wayland ? '' : run('xwininfo', ['-root', '-tree']).stdout);
if (wayland) console.log('smoke: (Wayland: no X tree to find the window in; the app runs as a Wayland client)');
else {
  await until(() => /"(\(\d+\) )?AITI Bridge"/.test(windows()), 'the window "AITI Bridge" on the screen');
  pass('the window "AITI Bridge" is on the screen');
}

// 3. the tray: its StatusNotifierItem registered with the host, its tooltip read back over D-Bus
const item = await until(() => {
  const line = registrations.split('\n').find((l) => l.includes('"service"'));
  return line && JSON.parse(line);
}, 'the tray icon to register with the tray host');
const tooltip = () => {
  const got = run(
    'gdbus',
    [
      'call',
      '--session',
      '--dest',
      item.service,
      '--object-path',
      item.path,
      '--method',
      'org.freedesktop.DBus.Properties.Get',
      'org.kde.StatusNotifierItem',
      'ToolTip',
    ],
    busEnv,
  );
  return got.status === 0 ? got.stdout : undefined;
};
const firstTip = tooltip();
pass(`the tray icon is registered (${item.service}${item.path})${firstTip ? `, tooltip ${firstTip.trim()}` : ''}`);

// an agent asks; the tray counts it
const token = readFileSync(join(dataDir, 'aiti-bridge', 'token'), 'utf8').trim();
// a program reading results' JSON (ai.aiti/structured): what a model reads is the text alone
const agent = new Client(
  { name: 'smoke', version: '1.0.0' },
  { capabilities: { experimental: { 'ai.aiti/structured': {} } } },
);
await agent.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp/mcp`)));
const call = agent.callTool(
  { name: 'user_confirm', arguments: { prompt: 'Smoke test: still there?', timeoutMs: 600_000 } },
  undefined,
  { timeout: 120_000 },
);
call.catch(() => undefined);
await until(async () => {
  const res = await fetch(`${origin}/bridge/sse?role=ai&token=${token}`);
  const reader = res.body.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  return /"asks":\[\{/.test(first);
}, 'the ask to open');
if (firstTip) {
  await until(() => tooltip()?.includes('1 open ask'), 'the tray tooltip to count the open ask', 15_000);
  pass('the tray tooltip counts the open ask');
} else console.log('smoke: (this Electron exposes no tray tooltip over D-Bus: the count is not read back)');

// 4. quit: SIGTERM to the main process (what logout, kill and the tray's Quit share), found by its port
const pid = /pid=(\d+)/.exec(run('ss', ['-Hltnp', `sport = :${port}`]).stdout)?.[1];
if (!pid) fail(`no process listens on ${port}`);
process.kill(Number(pid), 'SIGTERM');
const outcome = await call.then(
  (result) => result.structuredContent?.status,
  (error) => `an error: ${error.message}`,
);
if (outcome !== 'cancelled') fail(`quitting should answer the open ask "cancelled", it answered ${outcome}`);
pass('quitting answered the open ask ("cancelled")');
await until(() => app.exitCode !== null || app.signalCode !== null, 'the app to exit', 30_000);
if (!wayland) await until(() => !/"(\(\d+\) )?AITI Bridge"/.test(windows()), 'the window to close', 10_000);
const closed = await fetch(`${origin}/bridge/health`).then(
  () => false,
  () => true,
);
if (!closed) fail(`the bridge still answers on ${origin} after quitting`);
pass(`quit closed the app (exit ${app.exitCode ?? app.signalCode}), its window and its bridge`);
await agent.close().catch(() => undefined);
stopAll();
console.log('smoke: the desktop app passed');
