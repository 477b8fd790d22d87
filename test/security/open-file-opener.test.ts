import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFile, type Runner } from '../../bridge/pages/open-file.js';
import { http, startBridge, tempDir } from '../helpers/bridge.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Medium 7: the file name comes from a web page. Only regular text/source files open (an allow-list, checked on
 * the real path, symlinks resolved), and the OS opener — the fallback when the editor does not start — never gets
 * a type its OS would run.
 */

const EDITOR_MISSING = 'no-such-editor-aiti {file}';

/** Records what would run; the editor "does not start", so the OS opener is the next thing tried. */
function recorder(): { runner: Runner; ran: string[] } {
  const ran: string[] = [];
  return {
    ran,
    runner: async (cmd, args) => {
      ran.push([cmd, ...args].join(' '));
      if (cmd === 'no-such-editor-aiti') throw Object.assign(new Error('spawn ENOENT'), { code: 'ENOENT' });
    },
  };
}

function files(names: string[]): Record<string, string> {
  const dir = tempDir();
  const paths: Record<string, string> = {};
  for (const name of names) {
    paths[name] = join(dir, name);
    writeFileSync(paths[name], '#!/bin/sh\necho ran\n');
  }
  return paths;
}

describe('open_file opens only text and source files', () => {
  it('the OS opener never gets types an OS runs: .hta, .wsf, .tool, .terminal, .desktop, .js on Windows', async () => {
    const paths = files(['app.hta', 'job.wsf', 'run.tool', 'shell.terminal', 'evil.desktop', 'main.js', 'App.tsx']);
    const { runner, ran } = recorder();
    for (const name of ['app.hta', 'job.wsf', 'run.tool', 'shell.terminal', 'evil.desktop']) {
      await expect(openFile(EDITOR_MISSING, { file: paths[name] ?? '' }, runner)).rejects.toThrow(/is not opened/);
    }
    await expect(
      openFile(EDITOR_MISSING, { file: paths['main.js'] ?? '' }, runner, { platform: 'win32' }),
    ).rejects.toThrow(/not opened with the OS opener/);
    // nothing but the editor attempt for main.js ever ran
    expect(ran).toEqual([`no-such-editor-aiti ${paths['main.js']}`]);

    // source the OS only shows still falls back: .tsx anywhere, .js where no script host runs it
    await openFile(EDITOR_MISSING, { file: paths['App.tsx'] ?? '' }, runner, { platform: 'linux' });
    await openFile(EDITOR_MISSING, { file: paths['main.js'] ?? '' }, runner, { platform: 'darwin' });
    expect(ran.slice(-3)).toEqual([
      `xdg-open ${paths['App.tsx']}`,
      `no-such-editor-aiti ${paths['main.js']}`,
      `open ${paths['main.js']}`,
    ]);
  });

  it('the editor opens any source file, .js included', async () => {
    const paths = files(['main.js']);
    const { runner, ran } = recorder();
    await openFile('code --goto {file}:{line}', { file: paths['main.js'] ?? '', line: 3 }, runner, {
      platform: 'win32',
    });
    expect(ran).toEqual([`code --goto ${paths['main.js']}:3`]);
  });

  it('a trailing dot or space (which Windows drops) and a symlink to a .desktop file are refused', async () => {
    const paths = files(['notes.txt.', 'app.hta ', 'launcher.desktop']);
    const link = join(tempDir(), 'README.txt');
    symlinkSync(paths['launcher.desktop'] ?? '', link);
    const { runner, ran } = recorder();
    await expect(openFile(EDITOR_MISSING, { file: paths['notes.txt.'] ?? '' }, runner)).rejects.toThrow(
      /ends in a dot or space/,
    );
    await expect(openFile(EDITOR_MISSING, { file: paths['app.hta '] ?? '' }, runner)).rejects.toThrow(
      /ends in a dot or space/,
    );
    await expect(openFile(EDITOR_MISSING, { file: link }, runner)).rejects.toThrow(
      `"${paths['launcher.desktop']}" is not opened: only text and source files are`,
    );
    expect(ran).toEqual([]);
  });

  it('a directory, a device and a file outside --project-root are refused', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'App.tsx'), '');
    const outside = files(['secrets.txt'])['secrets.txt'] ?? '';
    symlinkSync(outside, join(root, 'src', 'linked.txt'));
    const { runner, ran } = recorder();
    const options = { projectRoot: root };
    await expect(openFile('code {file}', { file: join(root, 'src') }, runner, options)).rejects.toThrow(
      /not an existing file/,
    );
    await expect(openFile('code {file}', { file: '/dev/null' }, runner)).rejects.toThrow(/not an existing file/);
    await expect(openFile('code {file}', { file: outside }, runner, options)).rejects.toThrow(
      /outside the project root/,
    );
    await expect(openFile('code {file}', { file: join(root, 'src', 'linked.txt') }, runner, options)).rejects.toThrow(
      /outside the project root/,
    );
    await openFile('code {file}', { file: join(root, 'src', 'App.tsx') }, runner, options);
    expect(ran).toEqual([`code ${join(root, 'src', 'App.tsx')}`]);
  });

  it('end to end: an Alt+click event naming a symlinked .desktop file runs nothing, a source file runs the editor', async () => {
    const dir = tempDir();
    // the editor copies each file it opens into `opened`, under its own name
    const opened = tempDir();
    const bridge = await startBridge({ openCmd: `cp {file} ${opened}/` });
    const launcher = join(dir, 'launcher.desktop');
    writeFileSync(launcher, '[Desktop Entry]\nExec=sh -c "touch /tmp/pwned"\n');
    symlinkSync(launcher, join(dir, 'Button.txt'));
    const source = join(dir, 'Button.tsx');
    writeFileSync(source, 'export {};\n');
    const page = await ScriptedPage.connect(bridge.url);
    const event = (file: string) =>
      http(`${bridge.url}/bridge/event`, {
        body: { pageId: page.pageId, secret: page.secret, type: 'open_file', payload: { file } },
      });
    expect((await event(join(dir, 'Button.txt'))).status).toBe(204);
    expect((await event(source)).status).toBe(204);
    await waitFor(() => existsSync(join(opened, 'Button.tsx')), 5000, 'the editor command for the source file');
    // the link was asked for first: had the editor been started for it, it had been started before
    expect(readdirSync(opened)).toEqual(['Button.tsx']);
  });
});
