import type { MenuItemConstructorOptions } from 'electron';
import { PRODUCT_NAME } from './app-id.js';

export interface AppMenuDeps {
  platform: NodeJS.Platform;
  /** app.isPackaged: an installed app has no reload and no developer tools */
  packaged: boolean;
  showWindow(): void;
  composeToAll(): void;
  quit(): void;
}

const edit: MenuItemConstructorOptions = {
  label: 'Edit',
  submenu: [
    { role: 'undo' },
    { role: 'redo' },
    { type: 'separator' },
    { role: 'cut' },
    { role: 'copy' },
    { role: 'paste' },
    { role: 'pasteAndMatchStyle' },
    { role: 'selectAll' },
  ],
};

/**
 * The application menu made for this app, instead of Electron's default one (which ships View → Reload and
 * Toggle Developer Tools). macOS: the app menu, Edit (its copy and paste shortcuts exist only through the menu),
 * View, Window. Windows and Linux: File (the Quit the no-tray notice points to, Ctrl+Q), Edit, View. Reload and
 * the developer tools only in development.
 */
export function appMenu(deps: AppMenuDeps): MenuItemConstructorOptions[] {
  const quit: MenuItemConstructorOptions = {
    label: deps.platform === 'darwin' ? `Quit ${PRODUCT_NAME}` : 'Quit',
    accelerator: 'CommandOrControl+Q',
    click: deps.quit,
  };
  const compose: MenuItemConstructorOptions = {
    label: 'Push to all…',
    accelerator: 'CommandOrControl+Shift+P',
    click: deps.composeToAll,
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
      ...(deps.packaged
        ? []
        : ([{ type: 'separator' }, { role: 'reload' }, { role: 'toggleDevTools' }] as MenuItemConstructorOptions[])),
    ],
  };
  if (deps.platform === 'darwin') {
    return [
      {
        label: PRODUCT_NAME,
        submenu: [
          { role: 'about' },
          { type: 'separator' },
          { role: 'hide' },
          { role: 'hideOthers' },
          { role: 'unhide' },
          { type: 'separator' },
          quit,
        ],
      },
      { label: 'File', submenu: [compose, { type: 'separator' }, { role: 'close' }] },
      edit,
      view,
      {
        label: 'Window',
        submenu: [{ role: 'minimize' }, { role: 'zoom' }, { label: 'Open window', click: deps.showWindow }],
      },
    ];
  }
  return [{ label: 'File', submenu: [compose, { type: 'separator' }, { role: 'close' }, quit] }, edit, view];
}
