/** Whether this is a Wayland session, where Electron runs natively and X11 key grabs do not exist. */
export function isWaylandSession(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean {
  if (platform !== 'linux') return false;
  const type = env.XDG_SESSION_TYPE?.toLowerCase();
  return type === 'wayland' || (type !== 'x11' && Boolean(env.WAYLAND_DISPLAY));
}

/**
 * The value of Chromium's --enable-features the app starts with: on Wayland, global shortcuts exist only through
 * the desktop's GlobalShortcuts portal, which Electron uses with `GlobalShortcutsPortal` (without it the shortcut
 * never fires, silently); `GlobalShortcutsPortalPreferredTrigger` passes our accelerator to the portal as the
 * suggested key, which GNOME needs (electron/electron#52222). Features already asked for on the command line stay.
 */
export function enabledFeatures(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, current: string): string {
  const features = current.split(',').filter(Boolean);
  if (isWaylandSession(platform, env)) {
    for (const feature of ['GlobalShortcutsPortal', 'GlobalShortcutsPortalPreferredTrigger']) {
      if (!features.includes(feature)) features.push(feature);
    }
  }
  return features.join(',');
}
