/**
 * The app's one identity, everywhere a desktop looks it up. Linux: Electron takes `desktopName` from the packed
 * package.json as the Wayland app_id, the X11 WM_CLASS, the portal app id and the notifications' desktop-entry,
 * and portals (GNOME 50, xdg-desktop-portal 1.21+) refuse an id that names no installed `.desktop` file; the deb
 * and rpm install `<APP_ID>.desktop` (electron-builder.yml linux.syncDesktopName). Windows: the AppUserModelID
 * that notifications and the taskbar go by (electron-builder.yml appId). test/shell/packed-app.test.ts reads the
 * packed package.json and the `.desktop` files electron-builder writes, and finds this one name.
 */
export const APP_ID = 'dev.aiti.bridge';
/** the `.desktop` file the app is known by on Linux (package.json desktopName) */
export const DESKTOP_FILE = `${APP_ID}.desktop`;
/** the name people read: menus, the window title, the dock (package.json productName) */
export const PRODUCT_NAME = 'AITI Bridge';
