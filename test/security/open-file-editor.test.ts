import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandLine, openFile, runWithoutShell, type Runner } from '../../bridge/pages/open-file.js';
import { onCleanup, tempDir } from '../helpers/bridge.js';
import { waitFor } from '../helpers/wait.js';

/**
 * What open_file starts for a file a web page named: the real editor command, run without a shell (a file name
 * is data), the OS opener per platform when the editor does not start, and what it says it ran or why not.
 */

/**
 * An "editor": a script that writes the arguments it got, one a line, to `argv.txt` beside it. It writes them
 * elsewhere and renames: the redirect makes its file before anything is in it, and a test would read that empty.
 */
function fakeEditor(dir: string): { cmd: string; argv: string } {
  const cmd = join(dir, 'editor.sh');
  const argv = join(dir, 'argv.txt');
  const partial = JSON.stringify(`${argv}.partial`);
  writeFileSync(
    cmd,
    `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > ${partial}\nmv ${partial} ${JSON.stringify(argv)}\n`,
  );
  chmodSync(cmd, 0o755);
  return { cmd, argv };
}

const failing: Runner = async (cmd) => {
  throw new Error(`${cmd}: spawn ENOENT`);
};

function recording(fails: (cmd: string) => boolean): { runner: Runner; ran: string[][] } {
  const ran: string[][] = [];
  return {
    ran,
    runner: async (cmd, args) => {
      ran.push([cmd, ...args]);
      if (fails(cmd)) throw new Error(`${cmd}: spawn ENOENT`);
    },
  };
}

describe('the editor command', () => {
  it('gets a file name full of shell syntax as one argument, and nothing else runs', async () => {
    const dir = tempDir();
    const { cmd, argv } = fakeEditor(dir);
    const pwned = join(dir, 'pwned');
    // a shell would run both commands in this name (its path comes from the environment: a name has no slash)
    process.env.AITI_TEST_PWNED = pwned;
    onCleanup(() => {
      delete process.env.AITI_TEST_PWNED;
    });
    const source = join(dir, 'a;printf x >"$AITI_TEST_PWNED";$(printf x >"$AITI_TEST_PWNED").ts');
    writeFileSync(source, 'export {};\n');
    const ran = await openFile(`${cmd} --goto {file}:{line}`, { file: source, line: 3 }, runWithoutShell);
    expect(ran).toBe(`${cmd} --goto ${source}:3`);
    await waitFor(() => existsSync(argv), 5000, 'the editor to write its arguments');
    expect(readFileSync(argv, 'utf8')).toBe(`--goto\n${source}:3\n`);
    expect(existsSync(pwned)).toBe(false);
  });

  it('an editor that cannot start is reported, and the OS opener is tried next', async () => {
    const dir = tempDir();
    const source = join(dir, 'App.tsx');
    writeFileSync(source, 'export {};\n');
    await expect(runWithoutShell(join(dir, 'no-such-editor'), [source])).rejects.toThrow(/ENOENT/);
    const { runner, ran } = recording((cmd) => cmd === 'no-such-editor');
    expect(await openFile('no-such-editor {file}', { file: source }, runner, { platform: 'linux' })).toBe(
      `xdg-open ${source}`,
    );
    expect(ran).toEqual([['no-such-editor', source], ['xdg-open', [source]].flat()]);
  });

  it('quotes group the words of a command, single quotes too', () => {
    expect(
      commandLine("'/opt/my editor/ed' --goto '{file}:{line}:{column}'", { file: '/p/a.ts', line: 2, column: 5 }),
    ).toEqual(['/opt/my editor/ed', ['--goto', '/p/a.ts:2:5']]);
  });

  it('an empty command says to set AITI_OPEN_CMD', () => {
    expect(() => commandLine('   ', { file: '/p/a.ts' })).toThrow(
      'the open command "   " is empty; set AITI_OPEN_CMD, e.g. "code --goto {file}:{line}"',
    );
  });
});

describe('the OS opener, when the editor did not start', () => {
  it('is open on macOS, explorer on Windows, xdg-open elsewhere', async () => {
    const source = join(tempDir(), 'notes.md');
    writeFileSync(source, '# notes\n');
    for (const [platform, opener] of [
      ['darwin', 'open'],
      ['win32', 'explorer'],
      ['linux', 'xdg-open'],
    ] as const) {
      const { runner, ran } = recording((cmd) => cmd === 'no-such-editor');
      expect(await openFile('no-such-editor {file}', { file: source }, runner, { platform })).toBe(
        `${opener} ${source}`,
      );
      expect(ran[1]).toEqual([opener, source]);
    }
  });

  it('gets .mjs and .cjs except on Windows, where Windows Script Host would run them', async () => {
    const dir = tempDir();
    for (const name of ['tool.mjs', 'tool.cjs']) {
      const source = join(dir, name);
      writeFileSync(source, 'export {};\n');
      const linux = recording((cmd) => cmd === 'no-such-editor');
      await openFile('no-such-editor {file}', { file: source }, linux.runner, { platform: 'linux' });
      expect(linux.ran[1]).toEqual(['xdg-open', source]);
      const windows = recording((cmd) => cmd === 'no-such-editor');
      await expect(
        openFile('no-such-editor {file}', { file: source }, windows.runner, { platform: 'win32' }),
      ).rejects.toThrow('is not opened with the OS opener');
      expect(windows.ran).toHaveLength(1);
    }
  });

  it('neither starting says so, naming both and what to set', async () => {
    const source = join(tempDir(), 'notes.md');
    writeFileSync(source, '# notes\n');
    await expect(openFile('no-such-editor {file}', { file: source }, failing, { platform: 'linux' })).rejects.toThrow(
      'open_file: neither "no-such-editor" (no-such-editor: spawn ENOENT) nor xdg-open could start; set AITI_OPEN_CMD to your editor',
    );
  });
});

describe('which files a page may name', () => {
  it('source files of every kind the list names open: .py, .go, .sh, .yaml', async () => {
    const dir = tempDir();
    for (const name of ['app.py', 'main.go', 'build.sh', 'ci.yaml', 'page.twig']) {
      const source = join(dir, name);
      writeFileSync(source, '\n');
      const { runner, ran } = recording(() => false);
      await openFile('ed {file}', { file: source }, runner);
      expect(ran, name).toEqual([['ed', source]]);
    }
  });

  it('a name that is only an extension (.env, .ts) is not a source file', async () => {
    const dir = tempDir();
    for (const name of ['.env', '.ts']) {
      const file = join(dir, name);
      writeFileSync(file, 'SECRET=1\n');
      const { runner, ran } = recording(() => false);
      await expect(openFile('ed {file}', { file }, runner)).rejects.toThrow('only text and source files are');
      expect(ran).toEqual([]);
    }
  });

  it('a --project-root that does not exist opens nothing and says to fix it', async () => {
    const source = join(tempDir(), 'App.tsx');
    writeFileSync(source, 'export {};\n');
    const { runner, ran } = recording(() => false);
    await expect(openFile('ed {file}', { file: source }, runner, { projectRoot: '/no/such/root' })).rejects.toThrow(
      'open_file: the project root "/no/such/root" does not exist; fix --project-root',
    );
    expect(ran).toEqual([]);
  });
});
