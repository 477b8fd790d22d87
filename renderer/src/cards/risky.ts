import type { Messages } from '../i18n/en.js';

/** What a risky call does, as a key of the language's words (Messages.command.what). */
export type RiskKind = keyof Messages['command']['what'];

/** One line of a page script that does something the human should look at before allowing it. */
export interface Risk {
  /** 1-based line of the script */
  line: number;
  what: RiskKind;
}

/** Patterns of what a script may do beyond reading the page, each with the words the card says about it. */
const PATTERNS: ReadonlyArray<{ test: RegExp; what: RiskKind }> = [
  { test: /\bmethod\s*:\s*['"`](post|put|patch|delete)['"`]/i, what: 'changes' },
  { test: /\.open\s*\(\s*['"`](post|put|patch|delete)['"`]/i, what: 'changesXhr' },
  { test: /\bfetch\s*\(/, what: 'network' },
  { test: /\bXMLHttpRequest\b/, what: 'networkXhr' },
  { test: /\bsendBeacon\s*\(/, what: 'beacon' },
  { test: /\bnew\s+WebSocket\b|\bEventSource\b/, what: 'socket' },
  { test: /\bdocument\s*\.\s*cookie\b|\bcookieStore\b/, what: 'cookies' },
  { test: /\b(localStorage|sessionStorage|indexedDB)\b/, what: 'storage' },
  {
    test: /\blocation\s*(\.\s*(href|assign|replace|reload)\b|=[^=])|\bhistory\s*\.\s*(push|replace)State\b/,
    what: 'navigates',
  },
  { test: /\bwindow\s*\.\s*open\s*\(/, what: 'opens' },
  { test: /\.submit\s*\(\s*\)|\.requestSubmit\s*\(/, what: 'submits' },
  { test: /\bpostMessage\s*\(/, what: 'messages' },
  { test: /\beval\s*\(|\bnew\s+Function\s*\(|\bimport\s*\(/, what: 'builds' },
  { test: /\bnavigator\s*\.\s*clipboard\b/, what: 'clipboard' },
  {
    test: /\.remove\s*\(\s*\)|\.(innerHTML|outerHTML)\s*=[^=]|\bdocument\s*\.\s*write\s*\(/,
    what: 'dom',
  },
];

/**
 * The lines of a script that call something risky: network requests (above all those that change data),
 * cookies, storage, navigation, code built at run time … One finding a line and kind; a request that changes
 * data is named instead of the plain "network request" on the same line.
 */
export function findRisks(script: string): Risk[] {
  const risks: Risk[] = [];
  script.split('\n').forEach((text, i) => {
    const found = PATTERNS.filter((p) => p.test.test(text)).map((p) => p.what);
    const changes = found.some((w) => w === 'changes' || w === 'changesXhr');
    for (const what of found) {
      if (changes && (what === 'network' || what === 'networkXhr')) continue;
      risks.push({ line: i + 1, what });
    }
  });
  return risks;
}
