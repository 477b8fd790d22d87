import { spawn, spawnSync } from 'node:child_process';
import { onCleanup } from '../helpers/bridge.js';
import { waitFor } from '../helpers/wait.js';

/** Why a private D-Bus session bus cannot be started here, or undefined when it can. */
export function whyNoSessionBus(): string | undefined {
  return spawnSync('dbus-daemon', ['--version'], { stdio: 'ignore' }).status === 0
    ? undefined
    : 'dbus-daemon is not installed (Debian package "dbus-daemon")';
}

/** A private session bus, as a desktop session has, with nobody on it; stopped after the test. */
export async function sessionBus(): Promise<string> {
  // its stderr only says it could not raise its fd limit, as any unprivileged bus does
  const daemon = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1', '--nopidfile'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  onCleanup(() => {
    daemon.kill('SIGTERM');
  });
  let out = '';
  daemon.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await waitFor(() => out.includes('\n'), 10_000, 'the bus address');
  return out.trim();
}

/**
 * Whether a program can own a name on the bus here: Python's GObject bindings (python3-gi), which desktops have.
 * Undefined when they can; the reason when not.
 */
export function whyNoNameOwner(): string | undefined {
  return spawnSync('/usr/bin/python3', ['-c', 'from gi.repository import Gio'], { stdio: 'ignore' }).status === 0
    ? undefined
    : 'python3-gi is not installed: nothing here can own a D-Bus name';
}

/** Owns `name` on the bus at `address` (what a tray host does with org.kde.StatusNotifierWatcher). */
export async function ownName(address: string, name: string): Promise<void> {
  const owner = spawn(
    '/usr/bin/python3',
    [
      '-c',
      `import sys
from gi.repository import Gio, GLib
loop = GLib.MainLoop()
Gio.bus_own_name(Gio.BusType.SESSION, sys.argv[1], Gio.BusNameOwnerFlags.NONE, None,
  lambda *a: (print('owned', flush=True)), lambda *a: loop.quit())
loop.run()`,
      name,
    ],
    { env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  onCleanup(() => {
    owner.kill('SIGTERM');
  });
  let out = '';
  owner.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await waitFor(() => out.includes('owned'), 10_000, `${name} owned`);
}
