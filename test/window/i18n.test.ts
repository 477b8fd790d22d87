import { describe, expect, it } from 'vitest';
import { SaidCode } from '../../bridge/protocol/index.js';
import { en, type Messages } from '../../renderer/src/i18n/en.js';
import { LANGUAGES, systemLanguage } from '../../renderer/src/i18n/index.js';

/** Strings that read the same in every language: names, formats and keys. */
const SAME = new Set(['AITI Bridge', '(3) AITI Bridge', 'JSON', 'Markdown', 'English']);
/** Latin words a Chinese string may hold: names, formats, keys, flags. */
const LATIN = new Set(
  'KiB PNG JPEG GIF WebP AITI Bridge JSON CSV Markdown MCP QR HTTPS HTTP URL ID Ctrl Esc Enter Shift XHR Cookie sendBeacon Vite Script Tailscale Serve Android tls cert key remote aiti_hello devbox claude P WebCrypto'.split(
    ' ',
  ),
);

/** Sample values for a message function, by how many arguments it takes. */
const SAMPLE = ['3', 'X', '2', 'Y'];

/** Every string of a dictionary, by its path: functions are called with sample values (the codes' with theirs). */
function leaves(node: unknown, path: string[] = []): Array<[string, string]> {
  if (typeof node === 'string') return [[path.join('.'), node]];
  if (typeof node === 'function') {
    const fn = node as (...args: unknown[]) => unknown;
    const args =
      path[0] === 'said'
        ? [{ agent: 'X', page: 'Y', area: 'local', key: 'k', to: 'Z', seconds: 4 }]
        : SAMPLE.slice(0, fn.length);
    return [[path.join('.'), String(fn(...args))]];
  }
  if (node && typeof node === 'object')
    return Object.entries(node).flatMap(([key, value]) => leaves(value, [...path, key]));
  return [];
}

describe('every string the window shows is translated', () => {
  const reference = new Map(leaves(en));
  for (const [language, messages] of Object.entries(LANGUAGES).filter(([l]) => l !== 'en')) {
    it(`${language}: has every key of English, and none of its strings is English left as it was`, () => {
      const own = new Map(leaves(messages as Messages));
      expect([...reference.keys()].filter((k) => !own.has(k))).toEqual([]);
      const untranslated = [...own].filter(
        ([key, text]) => text === reference.get(key) && !SAME.has(text) && /[A-Za-z]{2}/.test(text),
      );
      expect(untranslated).toEqual([]);
      const latin = [...own].flatMap(([key, text]) =>
        (text.match(/[A-Za-z][A-Za-z_]+/g) ?? [])
          .filter((w) => !LATIN.has(w) && !['X', 'Y', 'Z', 'local', 'k'].includes(w))
          .map((w) => `${key}: ${w}`),
      );
      expect(latin).toEqual([]);
    });
  }

  it('every code the bridge says to the human has words in every language', () => {
    for (const messages of Object.values(LANGUAGES))
      for (const code of SaidCode.options) expect(typeof messages.said[code]).toBe('function');
  });

  it('the system language picks 繁體中文 for Taiwan, Hong Kong and zh-Hant, 简体中文 for other Chinese', () => {
    expect(systemLanguage(['zh-TW'])).toBe('zh-TW');
    expect(systemLanguage(['zh-Hant-HK'])).toBe('zh-TW');
    expect(systemLanguage(['zh-HK'])).toBe('zh-TW');
    expect(systemLanguage(['zh-CN'])).toBe('zh-CN');
    expect(systemLanguage(['zh'])).toBe('zh-CN');
    expect(systemLanguage(['de', 'en-GB'])).toBe('en');
  });
});
