import { isA } from '../dom/realm.js';
import { RESULT_CHAR_LIMIT } from '../../protocol/commands.js';
import type { SnapshotFrame, SnapshotResult } from '../../protocol/snapshot.js';
import { viewport } from './layout.js';
import { collapseRuns } from './snapshot-runs.js';
import {
  clickOnly,
  contentText,
  hasClickHandler,
  controlValue,
  isActionable,
  isGridCell,
  nameOf,
  roleOf,
} from '../dom/aria.js';
import { refFor } from '../dom/refs.js';
import { resolveTarget } from '../dom/targets.js';
import { clip, isDisabled, normalize } from '../dom/visible.js';
import { frameIdOf } from '../link/frames.js';
import { settled } from '../dom/settle.js';

/**
 * The outline behind page_snapshot: one line per node a person would notice, indented by depth. Generic
 * wrappers (div, span) vanish and their children move up; containers without anything actionable collapse to
 * one line of text; every actionable element starts with its ref; long runs of similar rows show their first
 * few and a count; with a modal dialog open, only the dialog. That keeps it below an accessibility tree of the
 * same page while every control stays reachable.
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
  'radiogroup',
]);
/**
 * Containers that are focusable as a whole in some libraries (Radix's RadioGroup takes tabindex=0): still a
 * container line with its controls under it, not one control.
 */
const CONTAINERS = new Set(['radiogroup', 'group', 'tablist', 'toolbar', 'menu', 'menubar', 'tree', 'grid']);
/** What a person operates: a wrapper holding one of these is not a control of its own. */
const CONTROL =
  'input:not([type=hidden]), select, textarea, button, a[href], [contenteditable=""], [contenteditable=true], [tabindex]:not([tabindex="-1"]), [role=combobox], [role=slider], [role=checkbox], [role=switch], [role=radio], [role=textbox], [role=spinbutton]';
/** Controls by role alone (React Aria's day cell is a div with role=button inside the gridcell). */
const ROLE_CONTROL = '[role=button], [role=link], [role=checkbox], [role=radio], [role=option], [role=menuitem]';
/** Every control a wrapper may hold, native or by role. */
const ROLE_CONTROL_ALL = `${CONTROL}, ${ROLE_CONTROL}, [role=spinbutton], [role=textbox], [role=switch], [role=slider]`;
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
  chars = 0;
  truncated = false;
  readonly frames: SnapshotFrame[] = [];
  /** per document (frames too): ids other elements name themselves by (aria-labelledby), their text a name */
  private readonly labels = new Map<Document, Set<string>>();

  private isLabel(el: Element): boolean {
    let ids = this.labels.get(el.ownerDocument);
    if (!ids) {
      ids = new Set(
        [...el.ownerDocument.querySelectorAll('[aria-labelledby]')].flatMap((named) =>
          (named.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter((id) => id && id !== named.id),
        ),
      );
      this.labels.set(el.ownerDocument, ids);
    }
    return Boolean(el.id) && ids.has(el.id);
  }

  constructor(
    private readonly maxDepth: number,
    private readonly budget: number,
    /** false when the agent asked for one part of the page: then it sees every row */
    private readonly collapse: boolean,
    /** the part the agent asked for: shown line by line, never folded into one line (a row's cells each on theirs) */
    private readonly expand?: Element,
  ) {}

  private line(depth: number, text: string): string {
    this.chars += text.length + depth * 2 + 1;
    // collapsing runs of rows shrinks what was walked, so walking stops only well past the budget
    if (this.chars > this.budget * 4) this.truncated = true;
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
    const outs: Out[] = [];
    for (const node of nodes) {
      if (this.truncated) break;
      const out = this.node(node, depth);
      if (out.lines.length) outs.push(out);
      rich ||= out.rich;
    }
    const kept = this.collapse ? collapseRuns(outs, () => refFor(holder(parent))) : outs;
    for (const out of kept) lines.push(...out.lines);
    if (kept !== outs) this.chars = Math.max(0, this.chars - droppedChars(outs, kept));
    return { lines, rich };
  }

  node(node: Node, depth: number): Out {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = normalize(node.textContent);
      // a separator between segments ("/", ":", "-") says nothing a person acts on
      if (!text || /^[/:.\-–|,]$/.test(text)) return EMPTY;
      return { lines: [this.line(depth, JSON.stringify(clip(text, 160)))], rich: false };
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
    // a dialog's title: the dialog's own line names it already
    if (role === 'heading' && titlesItsDialog(el)) return EMPTY;
    // a label whose text names a control: the control's line carries it
    if ((!role || role === 'label') && this.isLabel(el) && !el.querySelector(CONTROL)) return EMPTY;
    // a wrapper with a click handler around a control (it focuses the control): the control is the line; so is a
    // grid cell that holds one (a calendar's day button)
    if (clickOnly(el, role) && el.querySelector(CONTROL)) return this.children(el, depth);
    // a focusable wrapper with no role around controls of its own (MUI X's sections of a date field): the
    // controls are the lines
    if (!role && el.hasAttribute('tabindex') && !hasClickHandler(el) && el.querySelector(ROLE_CONTROL_ALL))
      return this.children(el, depth);
    if (role === 'gridcell' && isGridCell(el, role) && el.querySelector(`${CONTROL}, ${ROLE_CONTROL}`))
      return this.children(el, depth);
    if (isActionable(el, role) && !isSentinel(el, role) && !CONTAINERS.has(role)) {
      const kids = el.localName === 'select' ? EMPTY : this.children(el, depth + 1);
      // a grid row that takes focus itself (AG Grid's): one line, its ref first, each cell with its ref
      const cells = role === 'row' && kids.rich && el !== this.expand ? inlineCells(kids.lines, depth + 1) : undefined;
      if (cells) return { lines: [this.line(depth, `${refFor(el)} row: ${cells}`)], rich: true };
      return { lines: [this.line(depth, this.describe(el, role)), ...(kids.rich ? kids.lines : [])], rich: true };
    }
    if (role === 'group' && !nameOf(el, role, 80, false)) return this.children(el, depth);
    if (STRUCTURAL.has(role) || CONTAINERS.has(role)) {
      const kids = this.children(el, depth + 1);
      const head = role === 'heading' ? `heading[${headingLevel(el)}]` : role;
      const expanded = el === this.expand;
      // a row of a grid whose cells are one line each: one line, each cell with its ref
      if (role === 'row' && kids.rich && !expanded) {
        const cells = inlineCells(kids.lines, depth + 1);
        if (cells) {
          const ref = el.closest('[role=grid], [role=treegrid]') ? `${refFor(el)} ` : '';
          return { lines: [this.line(depth, `${ref}row: ${cells}`)], rich: true };
        }
      }
      if (!kids.rich && LEAFY.has(role) && !expanded) {
        const text = role === 'row' ? rowText(el) : nameOf(el, role, 160) || contentText(el, 160);
        if (!text && role !== 'separator' && role !== 'img') return EMPTY;
        // a paragraph of plain text is just text: no role word, and its container may merge it
        if (role === 'paragraph') return { lines: [this.line(depth, JSON.stringify(clip(text, 160)))], rich: false };
        return { lines: [this.line(depth, text ? `${head} ${JSON.stringify(clip(text, 160))}` : head)], rich: true };
      }
      // its text is in the lines below: a name only from aria-label, a label, a legend or a dialog title
      const name = nameOf(el, role, 80, false);
      const modal = (role === 'dialog' || role === 'alertdialog') && isModal(el) ? ' [modal]' : '';
      return {
        lines: [this.line(depth, `${head}${name ? ` ${JSON.stringify(name)}` : ''}${modal}`), ...kids.lines],
        rich: true,
      };
    }
    const kids = this.children(el, depth);
    if (!kids.rich && kids.lines.length > 1) {
      const text = contentText(el, 200);
      return text ? { lines: [this.line(depth, JSON.stringify(text))], rich: false } : EMPTY;
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
    // the input type when the role does not say it already (textbox:email, textbox:date; not slider:range)
    const said = ['text', 'checkbox', 'radio', 'submit', 'button', 'range', 'number', 'search'];
    if (isA(el, HTMLInputElement) && !said.includes(el.type)) parts[1] += `:${el.type}`;
    const name = nameOf(el, role);
    if (name) parts.push(JSON.stringify(name));
    const value = controlValue(el, role);
    if (value !== undefined) parts.push(`=${JSON.stringify(clip(value, 120))}`);
    if (isA(el, HTMLAnchorElement) && el.getAttribute('href')) parts.push(`→${shortUrl(el.href)}`);
    const states = statesOf(el);
    if (states.length) parts.push(`[${states.join(' ')}]`);
    return parts.join(' ');
  }
}

/** A heading whose text is the name of the dialog it sits in (MUI's DialogTitle, a modal's h2). */
function titlesItsDialog(heading: Element): boolean {
  const dialog = heading.parentElement?.closest('dialog, [role=dialog], [role=alertdialog]');
  if (!dialog) return false;
  const title = nameOf(dialog, roleOf(dialog), 80, false);
  return Boolean(title) && title === contentText(heading, 80);
}

function headingLevel(el: Element): number {
  const aria = Number(el.getAttribute('aria-level'));
  if (aria) return aria;
  const match = /^h([1-6])$/.exec(el.localName);
  return match ? Number(match[1]) : 2;
}

/**
 * The lines of a row's cells as one line (`e41 "Write docs" | e42 "Ada"`), when each cell is one line at `depth`
 * (nothing nested under it); undefined otherwise. The role of a plain cell goes: the row says what they are.
 */
function inlineCells(lines: string[], depth: number): string | undefined {
  const indent = '  '.repeat(depth);
  if (!lines.length || lines.some((l) => !l.startsWith(indent) || l.startsWith(`${indent} `))) return undefined;
  return lines.map((l) => l.slice(indent.length).replace(/^((?:f[\d.]+:)?e\d+ )(?:gridcell|cell) /, '$1')).join(' | ');
}

function rowText(row: Element): string {
  return [...row.children].map((cell) => contentText(cell, 80)).join(' | ');
}

/** The element that holds a list of child nodes: for a shadow root, its host. */
function holder(parent: Node): Element {
  if (isA(parent, Element)) return parent;
  if (isA(parent, ShadowRoot)) return parent.host;
  return document.body;
}

function droppedChars(all: Out[], kept: Array<{ lines: string[] }>): number {
  const size = (outs: Array<{ lines: string[] }>) =>
    outs.reduce((sum, out) => sum + out.lines.reduce((n, l) => n + l.length + 1, 0), 0);
  return size(all) - size(kept);
}

/**
 * Focusable only through tabindex, with no role, no name and no text: the sentinels a modal puts around itself to
 * trap the focus, or a scroll container. A person sees nothing there to act on.
 */
function isSentinel(el: Element, role: string): boolean {
  if (role || el.hasAttribute('onclick') || el.getAttribute('tabindex') === null) return false;
  if (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('title')) return false;
  return !normalize(el.textContent) && !el.querySelector('img, svg, input, select, textarea, button');
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
  // collapsed is how a combobox or a menu button rests: only an open one is news
  if (el.getAttribute('aria-expanded') === 'true') states.push('expanded');
  if (el.getAttribute('aria-selected') === 'true') states.push('selected');
  if (el.getAttribute('aria-pressed') === 'true') states.push('pressed');
  if (el.getAttribute('aria-invalid') === 'true') states.push('invalid');
  if (el.getAttribute('aria-current') && el.getAttribute('aria-current') !== 'false') states.push('current');
  return states;
}

/** The topmost open modal dialog (aria-modal, or a <dialog> opened with showModal), if any. */
function openModal(): Element | undefined {
  const modals = [...document.querySelectorAll('[aria-modal="true"], dialog[open]')].filter(
    (el) =>
      (el.getAttribute('aria-modal') === 'true' || el.matches(':modal')) &&
      el.getClientRects().length > 0 &&
      getComputedStyle(el).visibility !== 'hidden',
  );
  return modals[modals.length - 1];
}

/** One line on the page behind a modal: what it is, and that it cannot be reached until the dialog closes. */
function behindLine(modal: Element): string {
  const heading = [...document.querySelectorAll('h1, [role=heading][aria-level="1"]')].find((h) => !modal.contains(h));
  const what = (heading && contentText(heading, 60)) || clip(document.title, 60);
  return `(behind it: ${what ? JSON.stringify(what) : 'the page'}, inert)`;
}

const REF_LINE = /^\s*[a-z][\w.:-]*\d\s/;

export async function takeSnapshot(
  options: { target?: string; depth?: number; settleMs?: number },
  frameworks: string[],
): Promise<SnapshotResult> {
  await settled(options.settleMs ?? 0);
  const root = options.target === undefined ? undefined : resolveTarget(options.target);
  const walker = new Walker(options.depth ?? 60, RESULT_CHAR_LIMIT - 20_000, root === undefined, root);
  const modal = root ? undefined : openModal();
  let lines: string[];
  if (root) lines = walker.node(root, 0).lines;
  else if (modal) lines = [...walker.node(modal, 0).lines, behindLine(modal)];
  else lines = document.body ? walker.children(document.body, 0).lines : [];
  const budget = RESULT_CHAR_LIMIT - 20_000;
  let size = 0;
  const cutAt = lines.findIndex((line) => (size += line.length + 1) > budget);
  if (cutAt >= 0) lines = lines.slice(0, cutAt);
  const truncated = walker.truncated || cutAt >= 0;
  if (truncated) lines.push('…[outline cut at the size limit: snapshot a frame or use DOM.query for the rest]');
  return {
    url: location.href,
    title: document.title,
    viewport: viewport(),
    frameworks,
    outline: lines.join('\n'),
    refs: lines.filter((line) => REF_LINE.test(line)).length,
    frames: walker.frames,
    ...(truncated ? { truncated: true } : {}),
    ...(modal ? { modal: true } : {}),
  };
}
