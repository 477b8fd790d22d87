import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autoNameBase } from '../../bridge/agents/registry.js';
import { visibleName } from '../../bridge/devices/names.js';
import { extensionOf } from '../../bridge/pages/open-file.js';
import { splitQuestion } from '../../renderer/src/cards/Prompt.js';
import { historyMarkdown } from '../../renderer/src/inbox/export.js';
import { parseMarkdown } from '../../renderer/src/markdown/parse.js';
import type { Message } from '../../bridge/protocol/index.js';

/**
 * Issue 38, Medium 3: the window's markdown read a run of backticks with a regex that backtracked cubically: 2,000
 * backticks and an "a" blocked Chromium for 6.7 s, and 3,000 took 39 s in one regex call. Agent and page text must
 * cost time in proportion to its length. The markdown reader's work is counted in characters read
 * (`charCodeAt`, which its scanners go through), so the growth is measured without a clock: 8 times the text may
 * cost at most 12 times the reads (linear is 8; quadratic is 64). The plain functions that read such text with
 * regexes are measured in CPU time, with a ratio loose enough for a loaded machine and still half of quadratic.
 * (eslint's regexp/no-super-linear-* rules check every regex literal of bridge/ and renderer/ statically.)
 */

/** How many characters parseMarkdown reads for `text`. */
function reads(text: string): number {
  const real = String.prototype.charCodeAt;
  let count = 0;
  String.prototype.charCodeAt = function (this: string, index: number) {
    count++;
    return real.call(this, index);
  };
  try {
    parseMarkdown(text);
  } finally {
    String.prototype.charCodeAt = real;
  }
  return count;
}

/** Inputs known to take markdown parsers out of linear time (CommonMark's pathological cases and the finding). */
const PATHOLOGICAL: Record<string, (n: number) => string> = {
  'a run of backticks then a letter': (n) => '`'.repeat(n) + 'a',
  'backtick, letter, repeated': (n) => '`a'.repeat(n / 2),
  'growing runs of backticks': (n) => Array.from({ length: Math.sqrt(n) }, (_, i) => '`'.repeat(i + 1)).join('x'),
  'open brackets': (n) => '['.repeat(n) + 'a',
  'close brackets': (n) => ']'.repeat(n) + 'a',
  'unclosed links': (n) => '[a]('.repeat(n / 4),
  'nested images': (n) => '!['.repeat(n / 6) + 'a' + '](b)'.repeat(n / 6),
  'stars and letters': (n) => '*a'.repeat(n / 2),
  'a run of stars': (n) => '*'.repeat(n) + 'a',
  'underscores and letters': (n) => '_a'.repeat(n / 2),
  'strong openers, then closers': (n) => 'a**b'.repeat(n / 8) + '*'.repeat(n / 2),
  'nested emphasis': (n) => '*a '.repeat(n / 6) + 'b' + ' a*'.repeat(n / 6),
  'angle brackets': (n) => '<a'.repeat(n / 2),
  'nested quotes': (n) => '> '.repeat(n / 2) + 'a',
  'nested list markers': (n) => '- '.repeat(n / 2) + 'a',
  'indented list lines': (n) => Array.from({ length: n / 40 }, (_, i) => ' '.repeat(i % 30) + '- a').join('\n'),
  backslashes: (n) => '\\'.repeat(n),
  'unclosed link titles': (n) => '[a](b "' + '\\"'.repeat(n / 2),
  'fence lines': (n) => '```\n'.repeat(n / 4),
  hashes: (n) => '#'.repeat(n / 2) + ' a ' + '#'.repeat(n / 2),
  'setext underlines': (n) => 'a\n'.repeat(n / 4) + '='.repeat(n / 2),
  'stars and underscores': (n) => '*_'.repeat(n / 2),
  'links in links': (n) => '[a '.repeat(n / 3) + '](b)',
};

const SMALL = 2_000;
const LARGE = 16_000;

describe('the window reads agent text in linear time', () => {
  for (const [name, make] of Object.entries(PATHOLOGICAL))
    it(`markdown: ${name}`, () => {
      const small = reads(make(SMALL));
      const large = reads(make(LARGE));
      expect(large / Math.max(small, 1), `${small} → ${large} reads`).toBeLessThan(12);
    });

  it('markdown: 3,000 backticks and a letter read each character a few times', () => {
    for (const text of ['`'.repeat(3000) + 'a', 'Run ' + '`'.repeat(3000) + 'a']) {
      expect(reads(text)).toBeLessThan(text.length * 20);
      expect(JSON.stringify(parseMarkdown(text))).toContain('a');
    }
  });

  it('markdown: any repeated unit of markup characters grows linearly (fuzzed)', () => {
    const unit = fc.string({
      unit: fc.constantFrom(...'`*_[]()!<>#->\\ \n~"\'=:a1.'.split('')),
      minLength: 1,
      maxLength: 6,
    });
    fc.assert(
      fc.property(unit, (u) => {
        const small = reads(u.repeat(Math.ceil(SMALL / u.length)));
        const large = reads(u.repeat(Math.ceil(LARGE / u.length)));
        return large / Math.max(small, 1) < 12;
      }),
      { numRuns: 150, seed: 38 },
    );
  });
});

/** CPU time of `run(text)`, per call, the best of three rounds of at least 20 ms. */
function cpuPerCall(run: (text: string) => unknown, text: string): number {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const start = process.cpuUsage();
    let calls = 0;
    let spent = 0;
    do {
      run(text);
      calls++;
      const used = process.cpuUsage(start);
      spent = (used.user + used.system) / 1000;
    } while (spent < 20 && calls < 10_000);
    best = Math.min(best, spent / calls);
  }
  return best;
}

const message = (text: string): Message => ({
  id: 'm1',
  agentId: 'claude',
  from: 'agent',
  kind: 'agent_note',
  text,
  status: 'pending',
  at: '2026-12-01T00:00:00.000Z',
});

/** What each function reads that an agent, a page or a device wrote, and the text that made its old regex quadratic. */
const READERS: Array<{ name: string; run: (text: string) => unknown; attack: (n: number) => string }> = [
  // the finding itself, timed as well as counted: a reader that scans by regex reads no charCodeAt
  { name: 'markdown: a run of backticks then a letter', run: parseMarkdown, attack: (n) => '`'.repeat(n / 8) + 'a' },
  { name: "a prompt's question (trailing spaces)", run: splitQuestion, attack: (n) => 'a' + ' '.repeat(n) + 'b' },
  { name: "a prompt's question (fence test)", run: splitQuestion, attack: (n) => 'q\n\n' + ' '.repeat(n) + 'x' },
  { name: "an agent's client name", run: autoNameBase, attack: (n) => 'a' + '-'.repeat(n) + 'b' },
  { name: "a page's file name", run: extensionOf, attack: (n) => 'a' + '. '.repeat(n / 2) + 'b' },
  { name: 'a device name', run: visibleName, attack: (n) => '\u202e '.repeat(n / 2) + 'x' },
  {
    name: 'the Markdown export',
    run: (text) => historyMarkdown([message(text)], 'all'),
    attack: (n) => 'a' + ' \t'.repeat(n / 2) + 'b',
  },
];

describe('functions that read agent, page or device text take linear time', () => {
  for (const { name, run, attack } of READERS)
    it(name, () => {
      const small = cpuPerCall(run, attack(4_000));
      const large = cpuPerCall(run, attack(32_000));
      // 8 times the text: linear is 8 (more with the garbage it makes), quadratic 64; 32 leaves room for a loaded machine
      expect(large / small, `${small.toFixed(3)} ms → ${large.toFixed(3)} ms a call`).toBeLessThan(32);
    });
});
