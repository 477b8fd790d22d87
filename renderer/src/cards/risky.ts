/** One line of a page script that does something the human should look at before allowing it. */
export interface Risk {
  /** 1-based line of the script */
  line: number;
  what: string;
}

/** Patterns of what a script may do beyond reading the page, each with the words the card says about it. */
const PATTERNS: ReadonlyArray<{ test: RegExp; what: string }> = [
  { test: /\bmethod\s*:\s*['"`](post|put|patch|delete)['"`]/i, what: 'sends a request that changes data' },
  { test: /\.open\s*\(\s*['"`](post|put|patch|delete)['"`]/i, what: 'sends a request that changes data (XHR)' },
  { test: /\bfetch\s*\(/, what: 'makes a network request' },
  { test: /\bXMLHttpRequest\b/, what: 'makes a network request (XHR)' },
  { test: /\bsendBeacon\s*\(/, what: 'sends data out (sendBeacon)' },
  { test: /\bnew\s+WebSocket\b|\bEventSource\b/, what: 'opens a connection' },
  { test: /\bdocument\s*\.\s*cookie\b|\bcookieStore\b/, what: 'reads or writes cookies' },
  { test: /\b(localStorage|sessionStorage|indexedDB)\b/, what: 'reads or writes the page’s storage' },
  {
    test: /\blocation\s*(\.\s*(href|assign|replace|reload)\b|=[^=])|\bhistory\s*\.\s*(push|replace)State\b/,
    what: 'navigates the page',
  },
  { test: /\bwindow\s*\.\s*open\s*\(/, what: 'opens a window' },
  { test: /\.submit\s*\(\s*\)|\.requestSubmit\s*\(/, what: 'submits a form' },
  { test: /\bpostMessage\s*\(/, what: 'messages another window' },
  { test: /\beval\s*\(|\bnew\s+Function\s*\(|\bimport\s*\(/, what: 'runs code it builds at run time' },
  { test: /\bnavigator\s*\.\s*clipboard\b/, what: 'uses the clipboard' },
  {
    test: /\.remove\s*\(\s*\)|\.(innerHTML|outerHTML)\s*=[^=]|\bdocument\s*\.\s*write\s*\(/,
    what: 'changes or removes page content',
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
    const changes = found.some((w) => w.startsWith('sends a request that changes data'));
    for (const what of found) {
      if (changes && what.startsWith('makes a network request')) continue;
      risks.push({ line: i + 1, what });
    }
  });
  return risks;
}
