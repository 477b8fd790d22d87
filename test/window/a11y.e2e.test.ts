import { createRequire } from 'node:module';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import { http, startBridge } from '../helpers/bridge.js';
import { CHROMIUM_ARGS, chromiumPath } from '../helpers/chromium.js';
import { connectAgent } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { ensureWindowBuilt } from './build-window.js';

/**
 * Every view of the window in English, 简体中文 and 繁體中文, light and dark, at the desk and on a phone: axe-core
 * finds nothing (any impact), no word of the window is left in English, and nothing the window says is cut short.
 * One Chromium for the whole file, one page per language: views are opened by clicking, sizes and themes are
 * switched in place, so the file stays quick.
 */
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const SIZES = [
  { name: 'desk', width: 1280, height: 900 },
  { name: 'phone', width: 360, height: 640 },
] as const;
const THEMES = ['light', 'dark'] as const;
const LANGUAGES = ['en', 'zh-CN', 'zh-TW'] as const;
type Language = (typeof LANGUAGES)[number];
/**
 * English runs every view in both themes; each Chinese one in one theme (a language changes what the text is and
 * how long, not its colours), so both themes see every language's layout and the file stays quick on 2 cores.
 */
const THEMES_OF: Record<Language, ReadonlyArray<(typeof THEMES)[number]>> = {
  en: THEMES,
  'zh-CN': ['light'],
  'zh-TW': ['dark'],
};

/** What the agents and pages say: data, shown as it came, in every language (the rest must be translated). */
const DATA = {
  prompts: ['发布文档吗？', '用哪个迁移？', '新分支叫什么？', '你在吗？'],
  choices: Array.from({ length: 14 }, (_, i) => `迁移 ${i + 1}`),
  notices: Array.from({ length: 5 }, (_, i) => ({ title: `构建 ${i + 1}`, body: `测试通过 ${i + 1}` })),
  script: 'document.title',
};
/** Words that are the same in every language: names, formats, keys, and the page's own address and frameworks. */
const SAME = new Set(
  'Orders expression http AITI Bridge JSON CSV Markdown MCP QR HTTPS HTTP URL ID Ctrl Esc Enter Shift XHR Cookie sendBeacon Vite Script Tailscale Serve Android iPhone claude cursor codex localhost orders react vite Runtime evaluate document title aiti_hello devbox tls cert key remote'.split(
    ' ',
  ),
);

let browser: Browser;

beforeAll(async () => {
  await ensureWindowBuilt();
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}, 150_000);

afterAll(async () => {
  await browser?.close();
});

/**
 * A bridge (with its remote listener, for pairing) where three agents asked every kind of question, one page is
 * connected, and History has an answered ask and a push; `notify` sends five notices (a window hears of them only
 * while it is open). Closed after the test.
 */
async function world(): Promise<{ bridge: Bridge; notify(): Promise<void> }> {
  const bridge = await startBridge({ remote: { host: '127.0.0.1', port: 0 } });
  const tab = await ScriptedPage.connect(bridge.url, {
    url: 'http://localhost:5173/orders',
    title: 'Orders',
    frameworks: ['react', 'vite'],
    handler: () => 1,
  });
  const claude = await connectAgent(bridge.url, { clientName: 'claude' });
  const cursor = await connectAgent(bridge.url, { clientName: 'cursor' });
  const codex = await connectAgent(bridge.url, { clientName: 'codex' });
  await claude.callTool({ name: 'aiti_hello', arguments: { agentId: 'claude', pageId: tab.pageId } });
  await cursor.callTool({ name: 'aiti_hello', arguments: { agentId: 'cursor' } });
  await codex.callTool({ name: 'aiti_hello', arguments: { agentId: 'codex', pageId: tab.pageId } });
  const [confirm, choose, input, presence] = DATA.prompts;
  const ask = (name: string, args: Record<string, unknown>) =>
    claude.callTool({ name, arguments: { async: true, timeoutMs: 3_600_000, ...args } });
  await ask('user_confirm', { prompt: confirm });
  await ask('user_choose', { prompt: choose, choices: DATA.choices });
  await ask('user_input', { prompt: input });
  // presence has no async: its call waits, and still waits when the file ends
  void claude
    .callTool({ name: 'user_presence', arguments: { prompt: presence, timeoutMs: 3_600_000 } })
    .catch(() => undefined);
  // a page command waits on its call; the call is still waiting when the file ends
  void codex
    .callTool({ name: 'page_exec', arguments: { cmd: 'Runtime.evaluate', args: { expression: DATA.script } } })
    .catch(() => undefined);
  const notify = async () => {
    for (const notice of DATA.notices) await cursor.callTool({ name: 'user_notify', arguments: notice });
  };
  // History: an answered ask and a push
  const answered = await cursor.callTool({ name: 'user_confirm', arguments: { prompt: '合并吗？', async: true } });
  const askId = (answered.structuredContent as { askId: string }).askId;
  await http(`${bridge.url}/bridge/answer`, { token: bridge.token, body: { askId, action: 'answer', value: true } });
  await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'claude', text: '先看看测试' } });
  // a page error claude subscribed to: History shows what the page sent, not the bridge's English for the agent
  await claude.callTool({
    name: 'aiti_hello',
    arguments: { agentId: 'claude', pageId: tab.pageId, subEvents: ['page_error'] },
  });
  const posted = await http(`${bridge.url}/bridge/event`, {
    body: {
      pageId: tab.pageId,
      type: 'page_error',
      secret: tab.secret,
      payload: [{ message: '类型错误：total 未定义', kind: 'error', at: new Date().toISOString() }],
    },
  });
  expect(posted.status).toBe(204);
  return { bridge, notify };
}

async function openIn(language: Language, url: string): Promise<Page> {
  // axe is injected as a script of its own: the window's CSP (script-src 'self') would refuse it
  const context = await browser.newContext({ locale: language === 'en' ? 'en-US' : language, bypassCSP: true });
  await context.addInitScript((lang) => localStorage.setItem('aiti.language', lang), language);
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url);
  await page.addScriptTag({ path: axePath });
  return page;
}

/** axe-core's violations on the page as it is, one line each: rule, impact, where. */
async function violations(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(): Promise<{
            violations: Array<{
              id: string;
              impact: string;
              nodes: Array<{ target: unknown[]; failureSummary?: string }>;
            }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run();
    return result.violations.flatMap((v) =>
      v.nodes
        .slice(0, 3)
        .map((n) => `${v.id} (${v.impact}) at ${JSON.stringify(n.target)}: ${n.failureSummary?.split('\n')[1] ?? ''}`),
    );
  });
}

/** Visible text of the window that is in English words (data strings taken out first). */
async function english(page: Page): Promise<string[]> {
  const data = [
    ...DATA.prompts,
    ...DATA.choices,
    DATA.script,
    ...DATA.notices.flatMap((n) => [n.title, n.body]),
    '合并吗？',
    '先看看测试',
    '类型错误：total 未定义',
  ];
  const words = await page.evaluate((known) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (
        !el ||
        el.closest('code, pre, kbd, [aria-hidden="true"], .visually-hidden, script, style, option:not(:checked)')
      )
        continue;
      if (!el.checkVisibility?.()) continue;
      let text = node.textContent ?? '';
      for (const k of known) text = text.split(k).join(' ');
      out.push(...(text.match(/[A-Za-z][A-Za-z'’]+/g) ?? []));
    }
    for (const el of Array.from(document.querySelectorAll('[aria-label], [title], [placeholder]'))) {
      for (const attr of ['aria-label', 'title', 'placeholder']) {
        let text = el.getAttribute(attr) ?? '';
        for (const k of known) text = text.split(k).join(' ');
        out.push(...(text.match(/[A-Za-z][A-Za-z'’]+/g) ?? []));
      }
    }
    return out;
  }, data);
  return [...new Set(words.filter((w) => !SAME.has(w) && !/^p\d|^ask-|^msg/.test(w)))];
}

/** What the window says that is cut short on screen (an ellipsis, or text clipped), data fields aside. */
async function truncated(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((el) => {
        if (!el.checkVisibility?.() || !el.childNodes.length) return false;
        if (
          el.closest(
            '.page-url, .page-title, .card-source, .strip-ask, .row-title, .problem, code, pre, .quick-text, .visually-hidden, .brand-name',
          )
        )
          return false;
        const style = getComputedStyle(el);
        const cut = style.textOverflow === 'ellipsis' || style.overflow === 'hidden';
        return (
          cut &&
          el.scrollWidth > el.clientWidth + 1 &&
          Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent?.trim())
        );
      })
      .map((el) => `${el.className}: ${el.innerText.slice(0, 60)}`),
  );
}

interface View {
  name: string;
  /** opens the view; returns what closes it */
  open(page: Page, size: (typeof SIZES)[number]['name'], notify: () => Promise<void>): Promise<() => Promise<void>>;
}

/**
 * Clicks until `shown` is visible: a click on a card that had just moved (the view before changed its height) is
 * held by the window, as it should be, and the next one counts.
 */
async function clickUntil(target: Locator, shown: Locator): Promise<void> {
  await expect
    .poll(
      async () => {
        // bounded: a click that waits past the poll's own limit would hang the poll with it
        if (!(await shown.isVisible())) await target.click({ timeout: 3000 }).catch(() => undefined);
        return shown.isVisible();
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}

const card = (page: Page, prompt: string) => page.locator('.card:not(.ended)').filter({ hasText: prompt });
const VIEWS: View[] = [
  { name: 'cards and History', open: async () => async () => undefined },
  {
    name: 'reject panel',
    open: async (page) => {
      // Esc on the card opens its reject panel (in any language)
      await card(page, DATA.prompts[0] ?? '').click({ position: { x: 4, y: 4 } });
      await page.keyboard.press('Escape');
      await page.locator('.reject').waitFor();
      // the panel takes the focus; Esc in it goes back
      return () => page.keyboard.press('Escape');
    },
  },
  {
    name: 'quick replies',
    open: async (page) => {
      await clickUntil(card(page, DATA.prompts[2] ?? '').locator('.quick-open'), page.locator('.quick-menu'));
      return () => page.keyboard.press('Escape');
    },
  },
  {
    name: 'settings',
    open: async (page) => {
      await page.locator('.topbar [aria-haspopup="dialog"]').click();
      await page.locator('dialog.settings[open]').waitFor();
      return () => page.keyboard.press('Escape');
    },
  },
  {
    name: 'notices',
    open: async (page, _size, notify) => {
      // five notices now: on a slow machine the ones sent at the start may have had their minute
      await notify();
      await expect.poll(() => page.locator('.notices-button').isEnabled(), { timeout: 15_000 }).toBe(true);
      await page.locator('.notices-button').click();
      await page.locator('.notices-panel').waitFor();
      return () => page.keyboard.press('Escape');
    },
  },
  {
    name: 'panels and pairing code',
    open: async (page, size) => {
      if (size === 'phone') await page.locator('.drawer-toggle').click();
      await clickUntil(page.locator('.devices-panel > .button'), page.locator('.pairing-qr img'));
      return async () => {
        await page.locator('.pairing-qr .button').click();
        if (size === 'phone') await page.keyboard.press('Escape');
      };
    },
  },
];

describe('every view works for everyone', () => {
  for (const language of LANGUAGES) {
    it(
      `${language}: no axe violation in any view, theme or size; nothing in English or cut short`,
      { timeout: 180_000 },
      async () => {
        const { bridge, notify } = await world();
        const page = await openIn(language, bridge.uiUrl);
        await page.locator('.connection.conn-live').waitFor();
        await card(page, DATA.prompts[3] ?? '').waitFor();
        await page.locator('.card.kind-page_command').waitFor();
        await page.locator('.message.ask-record').waitFor();
        await page.locator('.message.kind-page_error').waitFor({ timeout: 15_000 });
        await notify();
        await expect.poll(() => page.locator('.notices-button').isEnabled(), { timeout: 15_000 }).toBe(true);
        const found: string[] = [];
        for (const size of SIZES) {
          await page.setViewportSize({ width: size.width, height: size.height });
          for (const view of VIEWS) {
            const close = await view.open(page, size.name, notify);
            for (const theme of THEMES_OF[language]) {
              await page.emulateMedia({ colorScheme: theme });
              for (const v of await violations(page)) found.push(`${view.name} · ${size.name} · ${theme}: ${v}`);
            }
            if (language !== 'en')
              for (const w of await english(page)) found.push(`${view.name} · ${size.name}: English "${w}"`);
            for (const cut of await truncated(page)) found.push(`${view.name} · ${size.name}: cut short ${cut}`);
            await close();
          }
        }
        expect([...new Set(found)]).toEqual([]);
      },
    );
  }

  it('on a 360×640 phone with five notices, every card button and the composer can be tapped', async () => {
    const { bridge, notify } = await world();
    const page = await openIn('en', bridge.uiUrl);
    await page.setViewportSize({ width: 360, height: 640 });
    await page.locator('.card.kind-page_command').waitFor();
    await notify();
    await expect
      .poll(() => page.locator('.notices-button').getAttribute('aria-label'), { timeout: 15_000 })
      .toContain('5 notices');
    const targets = page.locator('.card:not(.ended) button:not([disabled]), .composer textarea, .composer select');
    const count = await targets.count();
    expect(count).toBeGreaterThan(20);
    const covered: string[] = [];
    for (let i = 0; i < count; i++) {
      const target = targets.nth(i);
      if (!(await target.isVisible())) continue;
      await target.scrollIntoViewIfNeeded();
      const hit = await target.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return at === el || el.contains(at)
          ? ''
          : `${el.textContent || el.getAttribute('aria-label')} under ${at?.className}`;
      });
      if (hit) covered.push(hit);
    }
    expect(covered).toEqual([]);
  });

  it(
    'the pairing page, the token gate and the offline window have no axe violation either',
    { timeout: 120_000 },
    async () => {
      const { bridge } = await world();
      const found: string[] = [];
      const code = await http(`${bridge.url}/bridge/pairing`, { token: bridge.token, body: {} });
      const pairUrl = (code.body as { url: string }).url;
      for (const [name, url] of [
        ['pairing page', pairUrl],
        ['token gate', `${bridge.url}/aiti/ui/`],
      ] as const) {
        const page = await openIn('en', url);
        await page.locator('main h1').waitFor();
        for (const size of SIZES) {
          await page.setViewportSize({ width: size.width, height: size.height });
          for (const theme of THEMES) {
            await page.emulateMedia({ colorScheme: theme });
            for (const v of await violations(page)) found.push(`${name} · ${size.name} · ${theme}: ${v}`);
          }
        }
      }
      const page = await openIn('zh-TW', bridge.uiUrl);
      await page.locator('.connection.conn-live').waitFor();
      await bridge.close();
      await page.locator('.connection-banner').waitFor();
      for (const size of SIZES) {
        await page.setViewportSize({ width: size.width, height: size.height });
        for (const theme of THEMES) {
          await page.emulateMedia({ colorScheme: theme });
          for (const v of await violations(page)) found.push(`offline · ${size.name} · ${theme}: ${v}`);
        }
        for (const w of await english(page)) found.push(`offline · ${size.name}: English "${w}"`);
      }
      expect(found).toEqual([]);
    },
  );
});
