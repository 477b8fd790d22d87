import { isWaylandSession } from './linux-desktop.js';

/** Whether the tray icon can be seen: Electron creates it either way and cannot tell. */
export type TrayPresence = 'shown' | 'missing' | 'unknown';

export interface TrayPresenceDeps {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** runs a command, resolving with its exit status and output (undefined when it could not run) */
  run(command: string, args: string[]): Promise<{ status: number | null; stdout: string } | undefined>;
}

/**
 * Where the tray icon goes: macOS and Windows always show it. On Linux, Electron's icon is a StatusNotifierItem,
 * shown only when a StatusNotifierWatcher owns its D-Bus name (KDE, and GNOME with the AppIndicator extension);
 * without one, only an X11 session may still show the old XEmbed icon, and GNOME shows neither.
 */
export async function trayPresence(deps: TrayPresenceDeps): Promise<TrayPresence> {
  if (deps.platform !== 'linux') return 'shown';
  const answer = await deps.run('dbus-send', [
    '--session',
    '--print-reply',
    '--dest=org.freedesktop.DBus',
    '/org/freedesktop/DBus',
    'org.freedesktop.DBus.NameHasOwner',
    'string:org.kde.StatusNotifierWatcher',
  ]);
  if (!answer || answer.status !== 0) return 'unknown';
  if (/boolean true/.test(answer.stdout)) return 'shown';
  const gnome = (deps.env.XDG_CURRENT_DESKTOP ?? '').split(':').some((d) => /gnome/i.test(d));
  return gnome || isWaylandSession(deps.platform, deps.env) ? 'missing' : 'unknown';
}

/** What the window says about the tray, when the human may not see it; undefined when the tray is there. */
export function trayNotice(presence: TrayPresence): string | undefined {
  if (presence === 'missing') {
    return 'This desktop shows no tray icons (on GNOME, the AppIndicator extension adds them): closing this window quits AITI Bridge and answers its open asks; notifications still come while it runs.';
  }
  if (presence === 'unknown') {
    return 'If you see no AITI Bridge icon in your panel, closing this window keeps the bridge running out of sight: quit it with File → Quit (Ctrl+Q) here.';
  }
  return undefined;
}
