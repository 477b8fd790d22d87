import { isA } from '../dom/realm.js';
import { domToCanvas } from 'modern-screenshot';
import type { Json } from '../../protocol/common.js';
import { RESULT_CHAR_LIMIT } from '../../protocol/commands.js';
import type { PageCommandArgs } from '../../protocol/commands.js';
import { resolveTarget } from '../dom/targets.js';
import { quietNetwork } from '../watch/network.js';
import { label } from '../dom/describe.js';

const NOTE =
  'DOM rendering (modern-screenshot redraws the DOM into a canvas): not a pixel capture of the browser; ' +
  'cross-origin iframes, video frames and some canvas/WebGL content may be missing or differ';

/**
 * Renders the page (or one element) to an image that fits in a result: PNG when small enough, else JPEG at
 * falling quality and size.
 */
export async function screenshot(args: PageCommandArgs<'Page.screenshot'>): Promise<Json> {
  const el = args.target ? resolveTarget(args.target) : document.documentElement;
  const rect = el.getBoundingClientRect();
  const width = args.target ? rect.width : window.innerWidth;
  const height = args.target ? rect.height : window.innerHeight;
  const maxWidth = args.maxWidth ?? 1024;
  const scale = Math.min(1, maxWidth / Math.max(1, width));
  const canvas = await quietNetwork(() =>
    domToCanvas(el, {
      scale,
      width,
      height,
      backgroundColor: getComputedStyle(document.body).backgroundColor || '#ffffff',
      ...(args.target ? {} : { style: { transform: `translate(${-window.scrollX}px, ${-window.scrollY}px)` } }),
      filter: (node) => !(isA(node, Element) && node.localName === 'aiti-overlay'),
    }),
  );
  const budget = RESULT_CHAR_LIMIT - 2000;
  let data = canvas.toDataURL('image/png');
  let target = canvas;
  for (let quality = 0.85; data.length > budget && quality > 0.2; quality -= 0.15) {
    data = target.toDataURL('image/jpeg', quality);
    if (data.length > budget && quality < 0.5) target = shrink(target, 0.7);
  }
  const comma = data.indexOf(',');
  return {
    mimeType: data.slice(5, data.indexOf(';')),
    data: data.slice(comma + 1),
    width: target.width,
    height: target.height,
    ...(args.target ? { element: label(el) } : {}),
    note: NOTE,
  };
}

function shrink(canvas: HTMLCanvasElement, factor: number): HTMLCanvasElement {
  const out = document.createElement('canvas');
  out.width = Math.max(1, Math.round(canvas.width * factor));
  out.height = Math.max(1, Math.round(canvas.height * factor));
  out.getContext('2d')?.drawImage(canvas, 0, 0, out.width, out.height);
  return out;
}
