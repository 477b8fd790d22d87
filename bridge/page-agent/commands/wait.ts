import type { Json } from '../../protocol/common.js';
import type { PageCommandArgs } from '../../protocol/commands.js';
import { refFor } from '../dom/refs.js';
import { findAll, findByText } from '../dom/targets.js';
import { isVisible } from '../dom/visible.js';

/** Waits until a selector or text appears (or is gone), polling on DOM changes and a short interval. */
export function waitFor(args: PageCommandArgs<'Page.waitFor'>): Promise<Json> {
  const timeoutMs = args.timeoutMs ?? 5000;
  const started = performance.now();
  const what =
    args.selector !== undefined ? `selector ${JSON.stringify(args.selector)}` : `text ${JSON.stringify(args.text)}`;
  const find = (): Element | undefined => {
    if (args.selector !== undefined) {
      const target = /^(css=|text=)/.test(args.selector) ? args.selector : `css=${args.selector}`;
      return findAll(target).find(isVisible);
    }
    return findByText(args.text ?? '')[0];
  };
  return new Promise((resolve, reject) => {
    const check = () => {
      let el: Element | undefined;
      try {
        el = find();
      } catch (error) {
        finish();
        reject(error);
        return;
      }
      const met = args.gone ? !el : Boolean(el);
      if (!met) return;
      finish();
      resolve({
        ok: true,
        [args.gone ? 'gone' : 'found']: what,
        waitedMs: Math.round(performance.now() - started),
        ...(el ? { ref: refFor(el) } : {}),
      });
    };
    const observer = new MutationObserver(check);
    const interval = setInterval(check, 100);
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`${what} ${args.gone ? 'was still there' : 'did not appear'} within ${timeoutMs} ms`));
    }, timeoutMs);
    const finish = () => {
      observer.disconnect();
      clearInterval(interval);
      clearTimeout(timer);
    };
    observer.observe(document.documentElement, {
      childList: true,
      subtree: true,
      attributes: true,
      characterData: true,
    });
    check();
  });
}
