// The commit-message rule, on a throw-away repository: the script reads only the range it is given, so the
// project's own history before the rule existed is never judged.
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bridge.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/commit-lint.js', import.meta.url));

function repoWith(messages: string[]) {
  const dir = tempDir('aiti-commits-');
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@x',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@x',
      },
    });
  git('init', '-q', '-b', 'main');
  messages.forEach((message, i) => {
    writeFileSync(join(dir, 'f'), String(i));
    git('add', 'f');
    git('commit', '-q', '-m', message);
  });
  const lint = (range: string) => spawnSync(process.execPath, [SCRIPT, range], { cwd: dir, encoding: 'utf8' });
  return { git, lint };
}

describe('the commit-message lint', () => {
  it('passes "scope: subject" with a body, for each scope of the fixed list', () => {
    const { lint } = repoWith([
      'old history, before the rule',
      'desktop: one app id on Linux\n\nPortals refuse an id that names no .desktop file.',
      'page-agent: read the outline once\n\nIt was read twice per command.',
    ]);
    const run = lint('HEAD~2..HEAD');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('names each commit that breaks it and why, and fails', () => {
    const { lint } = repoWith([
      'desktop: fine\n\nBecause.',
      'Mutation run: groups side by side\n\nA scope that drifted.',
      'Tests: no scope of the list\n\nWhy.',
      `docs: ${'a very long subject line that keeps going '.repeat(2)}\n\nWhy.`,
      'ci: no body',
    ]);
    const run = lint('HEAD~4..HEAD');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('the subject is not "scope: subject"');
    expect(run.stderr).toContain('"Tests" is not a scope');
    expect(run.stderr).toMatch(/the subject line is \d+ characters \(under 72\)/);
    expect(run.stderr).toContain('no body saying why');
    expect(run.stderr).toContain('commit-lint: 4 commit(s) in HEAD~4..HEAD break the rule');
  });

  it('never reads history outside its range, and leaves merge commits alone', () => {
    const { git, lint } = repoWith(['Initial import', 'Shim: stdio shim']);
    expect(lint('HEAD~1..HEAD').status).toBe(1);
    git('checkout', '-q', '-b', 'topic');
    writeFileSync(join(git('rev-parse', '--show-toplevel').trim(), 'g'), 'x');
    git('add', 'g');
    git('commit', '-q', '-m', 'shim: a new file\n\nWhy.');
    git('checkout', '-q', 'main');
    git('merge', '-q', '--no-ff', '-m', 'Merge branch topic', 'topic');
    expect(lint('HEAD~1..HEAD').status).toBe(0);
  });
});
