import type { Json } from '../../protocol/common.js';
import type { PageCommandArgs } from '../../protocol/commands.js';
import type { Viewport } from '../../protocol/snapshot.js';
import { refFor } from '../dom/refs.js';
import { resolveTarget } from '../dom/targets.js';
import { isVisible, rectOf } from '../dom/visible.js';
import { describeElement } from '../dom/json.js';
import { label } from '../dom/describe.js';

export function viewport(): Viewport {
  const doc = document.documentElement;
  return {
    width: window.innerWidth,
    height: window.innerHeight,
    scrollX: Math.round(window.scrollX),
    scrollY: Math.round(window.scrollY),
    devicePixelRatio: window.devicePixelRatio,
    documentWidth: Math.max(doc.scrollWidth, document.body?.scrollWidth ?? 0),
    documentHeight: Math.max(doc.scrollHeight, document.body?.scrollHeight ?? 0),
  };
}

const STYLES = [
  'display',
  'position',
  'box-sizing',
  'width',
  'height',
  'margin',
  'padding',
  'border-width',
  'overflow',
  'z-index',
  'opacity',
  'visibility',
  'flex-direction',
  'justify-content',
  'align-items',
  'gap',
  'grid-template-columns',
  'font-size',
  'font-family',
  'color',
  'background-color',
];

/** Boxes and the styles that decide them: for "why is this element there / that size". */
export function layout(args: PageCommandArgs<'Page.layout'>): Json {
  const vp = viewport();
  if (!args.target) {
    const boxes = [...(document.body?.children ?? [])]
      .filter(isVisible)
      .slice(0, 40)
      .map((el) => ({ element: describeElement(el), ref: refFor(el), rect: rectOf(el) }));
    return { viewport: vp, boxes };
  }
  const el = resolveTarget(args.target);
  const computed = getComputedStyle(el);
  const style: Record<string, string> = {};
  for (const prop of STYLES) {
    const value = computed.getPropertyValue(prop);
    if (value && value !== 'normal' && value !== 'none' && value !== 'auto') style[prop] = value;
  }
  const rect = rectOf(el);
  return {
    viewport: vp,
    element: label(el),
    rect,
    visible: isVisible(el),
    inViewport: rect.y < vp.height && rect.y + rect.height > 0 && rect.x < vp.width && rect.x + rect.width > 0,
    style,
    parent: el.parentElement ? { element: describeElement(el.parentElement), rect: rectOf(el.parentElement) } : null,
    children: [...el.children]
      .slice(0, 30)
      .map((child) => ({ element: describeElement(child), ref: refFor(child), rect: rectOf(child) })),
  };
}
