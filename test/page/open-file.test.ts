import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandLine, openFile } from '../../bridge/pages/open-file.js';
import { tempDir } from '../helpers/bridge.js';

describe('open_file on the bridge', () => {
  it('splits the editor command into argv and fills {file}, {line} and {column}; no shell is involved', () => {
    expect(
      commandLine('code --goto {file}:{line}:{column}', { file: '/a b/c.ts; rm -rf ~', line: 3, column: 4 }),
    ).toEqual(['code', ['--goto', '/a b/c.ts; rm -rf ~:3:4']]);
    expect(commandLine('"/opt/My Editor/bin/ed" +{line} {file}', { file: '/x.ts' })).toEqual([
      '/opt/My Editor/bin/ed',
      ['+1', '/x.ts'],
    ]);
  });

  it('refuses a path that is not an existing file', async () => {
    await expect(openFile('code {file}', { file: '/no/such/file.ts' }, async () => undefined)).rejects.toThrow(
      /"\/no\/such\/file.ts" is not an existing file/,
    );
  });

  it('falls back to the OS opener when the editor cannot start, but never for files the OS would run', async () => {
    const dir = tempDir();
    const source = join(dir, 'a.ts');
    const script = join(dir, 'run.sh');
    writeFileSync(source, '');
    writeFileSync(script, '');
    const ran: string[] = [];
    const runner = async (cmd: string, args: string[]) => {
      ran.push([cmd, ...args].join(' '));
      if (cmd === 'missing-editor') throw Object.assign(new Error('spawn missing-editor ENOENT'), { code: 'ENOENT' });
    };
    await openFile('missing-editor {file}', { file: source }, runner);
    expect(ran[1]).toMatch(/^(xdg-open|open|explorer) .*a\.ts$/);
    await expect(openFile('missing-editor {file}', { file: script }, runner)).rejects.toThrow(
      /not opened with the OS opener/,
    );
  });
});
