import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { http, startBridge } from '../helpers/bridge.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { ensureWindowBuilt } from './build-window.js';
import { helloAgent, openWindowPage, settled } from './window-page.js';

const screenshots = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
/**
 * `AITI_SCREENSHOTS=write` writes docs/screenshots (then look at them); otherwise each shot is compared with the one
 * in the repository and nothing tracked is rewritten: a test run never changes the docs.
 */
const WRITE = process.env.AITI_SCREENSHOTS === 'write';
/** Share of pixels that may differ (fonts' anti-aliasing, a second's tick) before a shot counts as changed. */
const MAX_DIFFERENT = 0.03;

/**
 * The share of pixels that differ between two PNGs of the same size (1 when the sizes differ), decoded and
 * compared by the browser itself: no image library needed.
 */
async function difference(page: Page, a: Buffer, b: Buffer, skip: Box[]): Promise<number> {
  return page.evaluate(
    async ([one, two, boxes]) => {
      // an <img> of a data: URL (the window's CSP lets images be data:, not fetches)
      const load = async (base64: string) => {
        const img = new Image();
        img.src = `data:image/png;base64,${base64}`;
        await img.decode();
        return createImageBitmap(img);
      };
      const [x, y] = await Promise.all([load(one ?? ''), load(two ?? '')]);
      if (x.width !== y.width || x.height !== y.height) return 1;
      const pixels = (bitmap: ImageBitmap) => {
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext('2d');
        context?.drawImage(bitmap, 0, 0);
        return context?.getImageData(0, 0, bitmap.width, bitmap.height).data ?? new Uint8ClampedArray();
      };
      const [p, q] = [pixels(x), pixels(y)];
      const skipped = (i: number) => {
        const x0 = (i / 4) % x.width;
        const y0 = Math.floor(i / 4 / x.width);
        return boxes.some((b) => x0 >= b.x && x0 < b.x + b.width && y0 >= b.y && y0 < b.y + b.height);
      };
      let different = 0;
      for (let i = 0; i < p.length; i += 4) {
        if (skipped(i)) continue;
        const d =
          Math.abs((p[i] ?? 0) - (q[i] ?? 0)) +
          Math.abs((p[i + 1] ?? 0) - (q[i + 1] ?? 0)) +
          Math.abs((p[i + 2] ?? 0) - (q[i + 2] ?? 0));
        if (d > 48) different++;
      }
      return different / (p.length / 4);
    },
    [a.toString('base64'), b.toString('base64'), skip] as const,
  );
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
/** What changes from run to run (times, "seen … ago"): left out of the comparison, never out of the picture. */
const CHANGING = '.countdown-time, .strip-time, .message-time, .row-sub, .countdown-bar, .qr-left';

beforeAll(async () => {
  await ensureWindowBuilt();
  mkdirSync(screenshots, { recursive: true });
}, 150_000);

/** A small PNG of a logo (a blue ring), as an image pasted into the composer arrives. */
const LOGO =
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAALElEQVR4nGN48fY/VRDDCDHIOvo2SWikG/QfBxg1aNSgoZ2yB4dBlKBhbBAAwV5dTBl/95kAAAAASUVORK5CYII=';

/** What the agents ask in each language: the agents of a 简体中文 desk write Chinese. */
const WORDS = {
  en: {
    push: 'Heads up: the API moved to /v2, regenerate the client first',
    confirm: 'Drop the legacy invoices table? 1,204 rows, all archived in S3.',
    choose: 'Which layout for the billing settings page?',
    choices: ['Two columns, summary on the right', 'Single column with sections', 'Tabs per plan'],
    input: 'Name for the new feature branch?',
    notify: { title: 'Build', body: 'Tests are green on main' },
  },
  zhTW: {
    push: '注意：API 已遷到 /v2，請先重新產生用戶端',
    confirm: '刪除舊的 invoices 表嗎？共 1,204 列，已全部封存到 S3。',
    choose: '帳單設定頁用哪種版面？',
    choices: ['兩欄，摘要在右側', '單欄分節', '每個方案一個分頁'],
    input: '新功能分支叫什麼？',
    notify: { title: '建置', body: 'main 上的測試全部通過' },
  },
  zh: {
    push: '注意：API 已迁到 /v2，请先重新生成客户端',
    confirm: '删除旧的 invoices 表吗？共 1,204 行，已全部归档到 S3。',
    choose: '账单设置页用哪种布局？',
    choices: ['两栏，摘要在右侧', '单栏分节', '每个套餐一个标签页'],
    input: '新功能分支叫什么？',
    notify: { title: '构建', body: 'main 上的测试全部通过' },
  },
};

const shots = [
  { name: 'light', scheme: 'light', width: 1280, height: 1120, lang: 'en' },
  { name: 'dark', scheme: 'dark', width: 1280, height: 1120, lang: 'en' },
  { name: 'narrow', scheme: 'light', width: 360, height: 900, lang: 'en' },
  { name: 'phone', scheme: 'dark', width: 390, height: 844, lang: 'en' },
  { name: 'zh-CN', scheme: 'light', width: 1280, height: 1120, lang: 'zh' },
  { name: 'zh-TW', scheme: 'dark', width: 1280, height: 1120, lang: 'zhTW' },
] as const;

describe('screenshots', () => {
  for (const { name, scheme, width, height, lang } of shots) {
    it(`of the window with the strip of open asks (${name}, ${width} px wide)`, { timeout: 60_000 }, async () => {
      const words = WORDS[lang];
      const bridge = await startBridge();
      const invoices = await ScriptedPage.connect(bridge.url, {
        url: 'http://localhost:5173/invoices',
        frameworks: ['react', 'vite'],
        title: 'Invoices · Acme admin',
      });
      const billing = await ScriptedPage.connect(bridge.url, {
        url: 'http://localhost:3000/settings/billing',
        frameworks: ['vue'],
        title: 'Billing settings',
      });
      const claude = await helloAgent(bridge.url, 'claude-code', {
        pageId: invoices.pageId,
        subEvents: ['page_error'],
      });
      const cursor = await helloAgent(bridge.url, 'cursor', { pageId: billing.pageId });

      const posted = await http(`${bridge.url}/bridge/event`, {
        body: {
          pageId: invoices.pageId,
          type: 'page_error',
          secret: invoices.secret,
          payload: [
            {
              message: "TypeError: Cannot read properties of undefined (reading 'total')",
              kind: 'error',
              at: new Date().toISOString(),
            },
          ],
        },
      });
      expect(posted.status).toBe(204);
      const pushed = await http(`${bridge.url}/bridge/push`, {
        token: bridge.token,
        body: { text: words.push, images: [{ mimeType: 'image/png', data: LOGO }] },
      });
      expect(pushed.status).toBe(200);
      await claude.callTool({ name: 'aiti_inbox', arguments: {} });

      // one urgent sync ask (the agent waits on it), two async ones
      void claude
        .callTool({ name: 'user_confirm', arguments: { prompt: words.confirm, timeoutMs: 240_000 } })
        .catch(() => undefined);
      await cursor.callTool({
        name: 'user_choose',
        arguments: { prompt: words.choose, choices: words.choices, timeoutMs: 90_000, async: true },
      });
      await claude.callTool({
        name: 'user_input',
        arguments: { prompt: words.input, defaultValue: 'feat/invoice-export', timeoutMs: 600_000, async: true },
      });

      const page = await openWindowPage(bridge.uiUrl, {
        colorScheme: scheme,
        width,
        height,
        locale: lang === 'zh' ? 'zh-CN' : lang === 'zhTW' ? 'zh-TW' : 'en-US',
      });
      await page.locator('.card:not(.ended)').nth(2).waitFor();
      await page.locator('.message.kind-page_error').waitFor(); // page events arrive batched, once a second
      await page.locator('.message.push-row img.thumb').waitFor();
      const choose = await settled(page.locator('.card.kind-user_choose'));
      await choose.click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('1');
      await choose.getByRole('button', { pressed: true }).waitFor();
      await page.locator('.main-scroll').evaluate((el) => el.scrollTo(0, 0));
      // nothing scrolls sideways, however narrow (README "The window": usable from 360 px)
      const wide = await page.evaluate((w) => {
        const out: string[] = [];
        for (const el of Array.from(document.querySelectorAll('body *'))) {
          const r = el.getBoundingClientRect();
          // the strip of open asks scrolls within itself, soonest first; the page never does
          const inStrip = el.closest('.open-strip ol') && el !== el.closest('.open-strip ol');
          if (r.right > w + 1 && getComputedStyle(el).position !== 'fixed' && !el.closest('.side-column') && !inStrip)
            out.push(`${el.tagName}.${el.className} ${Math.round(r.right)}`);
        }
        return out.slice(0, 8);
      }, width);
      expect(wide).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      // a notice while the window is open: its count in the top bar
      await cursor.callTool({ name: 'user_notify', arguments: words.notify });
      await page.locator('.notices-button:not([disabled])').waitFor();
      await page.locator('.message.notify').waitFor();
      const changing = await page.locator(CHANGING).evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return {
            x: Math.floor(r.x) - 2,
            y: Math.floor(r.y) - 2,
            width: Math.ceil(r.width) + 4,
            height: Math.ceil(r.height) + 4,
          };
        }),
      );
      const shot = await page.screenshot();
      const file = `${screenshots}window-${name}.png`;
      if (WRITE) return writeFileSync(file, shot);
      expect(existsSync(file), `${file} is missing: run with AITI_SCREENSHOTS=write and look at it`).toBe(true);
      const changed = await difference(page, shot, readFileSync(file), changing);
      expect(changed, `${file} changed: run with AITI_SCREENSHOTS=write and look at it`).toBeLessThan(MAX_DIFFERENT);
    });
  }
});
