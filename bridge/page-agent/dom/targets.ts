import { isActionable, nameOf, roleOf } from './aria.js';
import { deepElements, deepQueryAll } from './deep.js';
import { parseRef } from '../../protocol/refs.js';
import { elementForRef } from './refs.js';
import { isVisible, normalize } from './visible.js';

/** A target matched nothing: the message says what was looked for and what to do. */
export class TargetError extends Error {}

const SNAPSHOT_HINT = 'take a new page_snapshot and use a ref from it';

/**
 * Elements for a target: a ref (`e12`), `css=<selector>`, `text=<visible text>`. A bare string is a ref when it
 * looks like one, else a CSS selector when it parses and matches, else visible text.
 */
export function findAll(target: string): Element[] {
  const value = target.trim();
  // a ref names one element or fails with why (earlier document, element gone): never a fallback to text
  const ref = parseRef(value);
  if (ref) return [elementForRef(ref)];
  if (value.startsWith('css=')) return queryCss(value.slice(4));
  if (value.startsWith('text=')) return findByText(value.slice(5));
  try {
    const found = deepQueryAll(value);
    if (found.length) return found;
  } catch {
    // not a selector: try it as text
  }
  return findByText(value);
}

function queryCss(selector: string): Element[] {
  try {
    return deepQueryAll(selector);
  } catch {
    throw new TargetError(`css=${selector} is not a valid CSS selector; fix it or ${SNAPSHOT_HINT}`);
  }
}

/** One element for a target, or an error saying nothing matched (or why a ref cannot be used). */
export function resolveTarget(target: string): Element {
  const [el] = findAll(target);
  if (!el) {
    // a document that loaded moments ago is often still rendering: say how to wait for it
    const young = performance.now() < 15_000;
    const wait = young
      ? `; this document loaded ${Math.round(performance.now() / 100) / 10} s ago: if the app is still rendering, call Page.waitFor {text or selector} (or pass waitFor to Page.reload/Page.navigate) first`
      : '';
    throw new TargetError(`no element matches ${JSON.stringify(target)}${wait}; ${SNAPSHOT_HINT}`);
  }
  return el;
}

/**
 * Visible elements whose text is `text`: exact accessible names of actionable elements first, then the smallest
 * element whose text equals it, then the smallest that contains it (case-insensitive).
 */
export function findByText(text: string): Element[] {
  const wanted = normalize(text).toLowerCase();
  if (!wanted) return [];
  const exactAction: Element[] = [];
  const exact: Element[] = [];
  const contains: Element[] = [];
  for (const el of deepElements()) {
    if (el.closest('script, style, template, head, aiti-overlay')) continue;
    // cheap filter first: innerText lays out, textContent does not (names may come from attributes)
    const raw = (el.textContent ?? '').toLowerCase();
    if (
      !raw.includes(wanted.split(' ')[0] ?? '') &&
      !el.hasAttribute('aria-label') &&
      !el.hasAttribute('value') &&
      !el.hasAttribute('placeholder') &&
      !el.hasAttribute('alt') &&
      !el.hasAttribute('title') &&
      !el.hasAttribute('aria-labelledby') &&
      !['input', 'textarea', 'select'].includes(el.localName)
    )
      continue;
    const own = normalize((el as HTMLElement).innerText ?? el.textContent).toLowerCase();
    const role = roleOf(el);
    const actionable = isActionable(el, role);
    const name = actionable ? nameOf(el, role, 1000).toLowerCase() : '';
    if (!own.includes(wanted) && !name.includes(wanted)) continue;
    if (!isVisible(el)) continue;
    if (actionable && (name === wanted || own === wanted)) exactAction.push(el);
    else if (own === wanted) exact.push(el);
    else contains.push(el);
  }
  // the deepest match is the element the text belongs to, not its containers
  const innermost = (list: Element[]) => list.filter((el) => !list.some((other) => other !== el && el.contains(other)));
  return [...innermost(exactAction), ...innermost(exact), ...innermost(contains)];
}
