import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Issue 43, item 5: the README a newcomer reads in ten minutes (≤ 350 lines), and every relative link in it and in
 * docs/*.md resolving — to a file, and to a heading where the link names one.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** The relative links of a markdown file, code blocks left out. */
function links(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] ?? '')
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

describe('the front door and the docs', () => {
  it('README.md fits a ten-minute read: 350 lines at most', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(350);
  });

  it('every relative link in README.md and docs/*.md resolves, headings included', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const target of links(file)) {
        const [path = '', anchor] = target.split('#');
        const resolved = path ? join(dirname(join(ROOT, file)), decodeURIComponent(path)) : join(ROOT, file);
        if (!existsSync(resolved)) {
          broken.push(`${file}: ${target} (no ${relative(ROOT, resolved)})`);
          continue;
        }
        if (anchor && statSync(resolved).isFile() && resolved.endsWith('.md') && !anchors(resolved).has(anchor))
          broken.push(`${file}: ${target} (no heading #${anchor} in ${relative(ROOT, resolved)})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('a broken link is caught: the check is not vacuous', () => {
    expect(links('README.md').length).toBeGreaterThan(10);
    expect(anchors(join(ROOT, 'README.md')).has('finding-the-bridge')).toBe(true);
  });
});
