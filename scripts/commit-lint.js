#!/usr/bin/env node
// Checks commit messages against the project's rule ("scope: subject", the whole subject line under 72
// characters, a blank line, then the why in a body), with the fixed list of scopes below.
// Usage: node scripts/commit-lint.js [<range>]   e.g. origin/main..HEAD (the default: this branch's own commits)
// It reads only the commits of the range, never the history before it: CI passes the commits of a push or a pull
// request (.github/workflows/ci.yml), so the commits written before this rule existed are never judged by it.
import { execFileSync } from 'node:child_process';

export const SCOPES = [
  'mcp',
  'shim',
  'asks',
  'inbox',
  'journal',
  'pages',
  'page-agent',
  'window',
  'devices',
  'remote',
  'agents',
  'cli',
  'register',
  'vite',
  'desktop',
  'release',
  'security',
  'docs',
  'test',
  'bench',
  'ci',
  'deps',
  'build',
  'mutate',
];
const MAX_SUBJECT = 71;

/** What is wrong with one commit message, or an empty list. */
export function problems(message) {
  const [subject = '', blank, ...body] = message.replace(/\s+$/, '').split('\n');
  const found = [];
  const scope = /^([^\s:]+): \S/.exec(subject)?.[1];
  if (!scope) found.push('the subject is not "scope: subject"');
  else if (!SCOPES.includes(scope)) found.push(`"${scope}" is not a scope (${SCOPES.join(' ')})`);
  if (subject.length > MAX_SUBJECT) found.push(`the subject line is ${subject.length} characters (under 72)`);
  if (blank !== undefined && blank !== '') found.push('no blank line after the subject');
  if (!body.join('').trim()) found.push('no body saying why');
  return found;
}

function defaultRange() {
  for (const base of ['origin/main', 'main']) {
    try {
      execFileSync('git', ['rev-parse', '--verify', '--quiet', base], { stdio: 'ignore' });
      return `${base}..HEAD`;
    } catch {
      // try the next
    }
  }
  return 'HEAD^..HEAD';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const range = process.argv[2] ?? defaultRange();
  // merges are the lead's and git's wording; every other commit follows the rule
  const log = execFileSync('git', ['log', '--no-merges', '--format=%h%x00%B%x1e', range], { encoding: 'utf8' });
  const bad = log
    .split('\x1e')
    .map((entry) => entry.replace(/^\n/, ''))
    .filter(Boolean)
    .map((entry) => {
      const [hash = '', message = ''] = entry.split('\x00');
      return { hash, subject: message.split('\n')[0], found: problems(message) };
    })
    .filter((commit) => commit.found.length);
  for (const { hash, subject, found } of bad) console.error(`${hash} ${subject}\n  ${found.join('\n  ')}`);
  if (bad.length) {
    console.error(`commit-lint: ${bad.length} commit(s) in ${range} break the rule`);
    process.exit(1);
  }
  console.log(`commit-lint: every commit in ${range} is "scope: subject" with a body`);
}
