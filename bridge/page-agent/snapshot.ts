import { isA } from './dom/realm.js';
import { RESULT_CHAR_LIMIT } from '../protocol/commands.js';
import type { SnapshotFrame, SnapshotResult } from '../protocol/snapshot.js';
import { viewport } from './commands/layout.js';
import { isActionable, nameOf, roleOf } from './dom/aria.js';
import { refFor } from './dom/refs.js';
import { clip, isDisabled, normalize } from './dom/visible.js';
import { frameIdOf } from './frames.js';

/**
 * The outline behind page_snapshot: one line per node a person would notice, indented by depth. Generic
 * wrappers (div, span) vanish and their children move up; containers without anything actionable collapse to
 * one line of text; every actionable element starts with its ref. That keeps it well below an accessibility
 * tree of the same page while every control stays reachable.
 */

const SKIP = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'head',
  'meta',
  'link',
  'title',
  'base',
  'aiti-overlay',
]);
const STRUCTURAL = new Set([
  'heading',
  'list',
  'listitem',
  'navigation',
  'main',
  'banner',
  'contentinfo',
  'complementary',
  'region',
  'form',
  'dialog',
  'alertdialog',
  'table',
  'row',
  'cell',
  'columnheader',
  'rowheader',
  'img',
  'paragraph',
  'group',
  'article',
  'alert',
  'status',
  'tablist',
  'tabpanel',
  'menu',
  'menubar',
  'toolbar',
  'tree',
  'grid',
  'separator',
  'figure',
  'progressbar',
  'meter',
]);
/** roles shown as one line with their text when nothing inside them is actionable */
const LEAFY = new Set([
  'heading',
  'listitem',
  'paragraph',
  'cell',
  'columnheader',
  'rowheader',
  'row',
  'img',
  'alert',
  'status',
  'progressbar',
  'meter',
  'separator',
]);

interface Out {
  lines: string[];
  /** holds a ref or a structural line: worth keeping as it is */
  rich: boolean;
}

const EMPTY: Out = { lines: [], rich: false };

class Walker {
  refs = 0;
  chars = 0;
  truncated = false;
  readonly frames: SnapshotFrame[] = [];

  constructor(
    private readonly maxDepth: number,
    private readonly budget: number,
  ) {}

  private line(depth: number, text: string): string {
    this.chars += text.length + depth * 2 + 1;
    if (this.chars > this.budget) this.truncated = true;
    return '  '.repeat(depth) + text;
  }

  children(parent: Node, depth: number): Out {
    const lines: string[] = [];
    let rich = false;
    const nodes: Node[] = isA(parent, HTMLSlotElement)
      ? parent.assignedNodes({ flatten: true }).length
        ? parent.assignedNodes({ flatten: true })
        : [...parent.childNodes]
      : [...((isA(parent, Element) && parent.shadowRoot) || parent).childNodes];
    for (const node of nodes) {
      if (this.truncated) break;
      const out = this.node(node, depth);
      lines.push(...out.lines);
      rich ||= out.rich;
    }
    return { lines, rich };
  }

  node(node: Node, depth: number): Out {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = normalize(node.textContent);
      return text ? { lines: [this.line(depth, JSON.stringify(clip(text, 160)))], rich: false } : EMPTY;
    }
    if (!isA(node, Element) || SKIP.has(node.localName)) return EMPTY;
    return this.element(node, depth);
  }

  private element(el: Element, depth: number): Out {
    if (el.getAttribute('aria-hidden') === 'true' || (el as HTMLElement).hidden) return EMPTY;
    const style = getComputedStyle(el);
    if (style.display === 'none') return EMPTY;
    if (style.display !== 'contents' && el.getClientRects().length === 0) return EMPTY;
    if (style.visibility === 'hidden') return this.children(el, depth);
    if (depth > this.maxDepth) return { lines: [this.line(depth, '…')], rich: false };
    if (el.localName === 'iframe' || el.localName === 'frame') return this.iframe(el as HTMLIFrameElement, depth);

    if (isA(el, HTMLLabelElement) && el.control) {
      // the control carries the label as its name: keep the controls, drop the repeated text
      const kids = this.children(el, depth);
      return { lines: kids.lines.filter((line) => !line.trimStart().startsWith('"')), rich: kids.rich };
    }
    const role = roleOf(el);
    if (isActionable(el, role)) {
      this.refs++;
      const kids = el.localName === 'select' ? EMPTY : this.children(el, depth + 1);
      return { lines: [this.line(depth, this.describe(el, role)), ...(kids.rich ? kids.lines : [])], rich: true };
    }
    if (STRUCTURAL.has(role)) {
      const kids = this.children(el, depth + 1);
      const head = role === 'heading' ? `heading[${headingLevel(el)}]` : role;
      if (!kids.rich && LEAFY.has(role)) {
        const text = role === 'row' ? rowText(el) : nameOf(el, role, 160) || normalize((el as HTMLElement).innerText);
        if (!text && role !== 'separator' && role !== 'img') return EMPTY;
        // a paragraph of plain text is just text: no role word, and its container may merge it
        if (role === 'paragraph') return { lines: [this.line(depth, JSON.stringify(clip(text, 160)))], rich: false };
        return { lines: [this.line(depth, text ? `${head} ${JSON.stringify(clip(text, 160))}` : head)], rich: true };
      }
      const name = nameOf(el, role, 80);
      const modal = (role === 'dialog' || role === 'alertdialog') && isModal(el) ? ' [modal]' : '';
      return {
        lines: [this.line(depth, `${head}${name ? ` ${JSON.stringify(name)}` : ''}${modal}`), ...kids.lines],
        rich: true,
      };
    }
    const kids = this.children(el, depth);
    if (!kids.rich && kids.lines.length > 1) {
      const text = normalize((el as HTMLElement).innerText ?? el.textContent);
      return text ? { lines: [this.line(depth, JSON.stringify(clip(text, 200)))], rich: false } : EMPTY;
    }
    return kids;
  }

  private iframe(frame: HTMLIFrameElement, depth: number): Out {
    const name = nameOf(frame, 'iframe', 60);
    let doc: Document | null = null;
    try {
      doc = frame.contentDocument;
    } catch {
      doc = null;
    }
    const head = `iframe${name ? ` ${JSON.stringify(name)}` : ''}`;
    if (doc?.body) {
      const kids = this.children(doc.body, depth + 1);
      return {
        lines: [this.line(depth, `${head} ${frame.src ? shortUrl(frame.src) : ''}`.trimEnd()), ...kids.lines],
        rich: true,
      };
    }
    const frameId = frameIdOf(frame);
    this.frames.push({ ...(frameId ? { frameId } : {}), url: frame.src, ...(name ? { title: name } : {}) });
    const how = frameId
      ? `cross-origin: page_snapshot with frameId "${frameId}"`
      : 'cross-origin, no page agent in it: not reachable';
    return { lines: [this.line(depth, `${head} ${shortUrl(frame.src)} [${how}]`)], rich: true };
  }

  private describe(el: Element, role: string): string {
    const parts = [refFor(el), role || el.localName];
    if (isA(el, HTMLInputElement) && !['text', 'checkbox', 'radio', 'submit', 'button'].includes(el.type))
      parts[1] += `:${el.type}`;
    const name = nameOf(el, role);
    if (name) parts.push(JSON.stringify(name));
    const value = valueOf(el);
    if (value !== undefined) parts.push(`=${JSON.stringify(clip(value, 120))}`);
    if (isA(el, HTMLAnchorElement) && el.getAttribute('href')) parts.push(`→${shortUrl(el.href)}`);
    const states = statesOf(el);
    if (states.length) parts.push(`[${states.join(' ')}]`);
    return parts.join(' ');
  }
}

function headingLevel(el: Element): number {
  const aria = Number(el.getAttribute('aria-level'));
  if (aria) return aria;
  const match = /^h([1-6])$/.exec(el.localName);
  return match ? Number(match[1]) : 2;
}

function rowText(row: Element): string {
  return [...row.children].map((cell) => normalize((cell as HTMLElement).innerText)).join(' | ');
}

function isModal(el: Element): boolean {
  return el.getAttribute('aria-modal') === 'true' || (isA(el, HTMLDialogElement) && el.matches(':modal'));
}

function shortUrl(href: string): string {
  try {
    const url = new URL(href, location.href);
    return clip(url.origin === location.origin ? url.pathname + url.search + url.hash : url.href, 100);
  } catch {
    return clip(href, 100);
  }
}

function valueOf(el: Element): string | undefined {
  if (isA(el, HTMLInputElement)) {
    if (['checkbox', 'radio', 'submit', 'button', 'reset', 'image', 'file'].includes(el.type)) return undefined;
    if (el.type === 'password') return el.value ? '•'.repeat(Math.min(el.value.length, 8)) : undefined;
    return el.value || undefined;
  }
  if (isA(el, HTMLTextAreaElement)) return el.value || undefined;
  if (isA(el, HTMLSelectElement)) return [...el.selectedOptions].map((o) => normalize(o.text)).join(', ') || undefined;
  if ((el as HTMLElement).isContentEditable) return normalize((el as HTMLElement).innerText) || undefined;
  const now = el.getAttribute('aria-valuenow');
  return now ?? undefined;
}

function statesOf(el: Element): string[] {
  const states: string[] = [];
  const checked =
    isA(el, HTMLInputElement) && (el.type === 'checkbox' || el.type === 'radio')
      ? el.checked
      : el.getAttribute('aria-checked') === 'true'
        ? true
        : el.hasAttribute('aria-checked')
          ? false
          : undefined;
  if (checked === true) states.push('checked');
  if (isDisabled(el)) states.push('disabled');
  if ((el as HTMLInputElement).required || el.getAttribute('aria-required') === 'true') states.push('required');
  if ((el as HTMLInputElement).readOnly) states.push('readonly');
  const expanded = el.getAttribute('aria-expanded');
  if (expanded) states.push(expanded === 'true' ? 'expanded' : 'collapsed');
  if (el.getAttribute('aria-selected') === 'true') states.push('selected');
  if (el.getAttribute('aria-pressed') === 'true') states.push('pressed');
  if (el.getAttribute('aria-invalid') === 'true') states.push('invalid');
  if (el.getAttribute('aria-current') && el.getAttribute('aria-current') !== 'false') states.push('current');
  if (document.activeElement === el) states.push('focused');
  return states;
}

export function takeSnapshot(options: { maxDepth?: number }, frameworks: string[]): SnapshotResult {
  const walker = new Walker(options.maxDepth ?? 60, RESULT_CHAR_LIMIT - 20_000);
  const out = document.body ? walker.children(document.body, 0) : EMPTY;
  const lines = out.lines;
  if (walker.truncated) lines.push('…[outline cut at the size limit: snapshot a frame or use DOM.query for the rest]');
  return {
    url: location.href,
    title: document.title,
    viewport: viewport(),
    frameworks,
    outline: lines.join('\n'),
    refs: walker.refs,
    frames: walker.frames,
    ...(walker.truncated ? { truncated: true } : {}),
  };
}
