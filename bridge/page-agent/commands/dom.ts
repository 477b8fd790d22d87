import type { Json } from '../../protocol/common.js';
import type { PageCommandArgs } from '../../protocol/commands.js';
import { nameOf, roleOf } from '../dom/aria.js';
import { refFor } from '../dom/refs.js';
import { selectorFor } from '../dom/selector.js';
import { findAll, resolveTarget } from '../dom/targets.js';
import { clip, isVisible, normalize, rectOf } from '../dom/visible.js';

const ATTRIBUTES = [
  'id',
  'class',
  'name',
  'type',
  'href',
  'src',
  'value',
  'placeholder',
  'aria-label',
  'role',
  'title',
];

function describe(el: Element): Json {
  const attributes: Record<string, string> = {};
  for (const attr of ATTRIBUTES) {
    const value = el.getAttribute(attr);
    if (value) attributes[attr] = clip(value, 200);
  }
  const role = roleOf(el);
  return {
    ref: refFor(el),
    tag: el.localName,
    ...(role ? { role } : {}),
    name: nameOf(el, role),
    text: clip(normalize((el as HTMLElement).innerText ?? el.textContent), 200),
    selector: selectorFor(el),
    visible: isVisible(el),
    rect: rectOf(el),
    attributes,
  };
}

export function query(args: PageCommandArgs<'DOM.query'>): Json {
  const all = findAll(args.target);
  const limit = args.all ? (args.limit ?? 50) : 1;
  const matches = all.slice(0, limit).map(describe);
  return {
    count: all.length,
    matches,
    ...(all.length === 0 ? { hint: 'nothing matched; take a page_snapshot to see what is on the page' } : {}),
  };
}

export function getHtml(args: PageCommandArgs<'DOM.getHTML'>): Json {
  const el = args.target ? resolveTarget(args.target) : document.documentElement;
  return { html: args.outer === false ? el.innerHTML : el.outerHTML };
}

export function getText(args: PageCommandArgs<'DOM.getText'>): Json {
  const el = args.target ? resolveTarget(args.target) : document.body;
  return { text: (el as HTMLElement).innerText ?? el.textContent ?? '' };
}
