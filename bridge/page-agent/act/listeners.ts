import { isA } from '../dom/realm.js';

/**
 * Who listens for a press, so a click that reaches no one can say so. A page cannot list an element's listeners,
 * so the agent (loaded before the app's code: the Vite plugin and the script tag put it first) notes every
 * addEventListener of a pointer, mouse or click event; framework handlers are read where frameworks keep them
 * (React's props, Vue's invokers, Svelte's and Solid's delegated handlers). A listener on the document, the body or
 * a React root is a delegation point that listens for everything, so it says nothing about this element.
 */
const PRESS = new Set([
  'click',
  'mousedown',
  'mouseup',
  'pointerdown',
  'pointerup',
  'dblclick',
  'auxclick',
  'contextmenu',
  'touchstart',
  'touchend',
]);
const heard = new WeakMap<EventTarget, Set<string>>();

let installed = false;

/** Starts noting listeners (once per document's realm). */
export function noteListeners(): void {
  if (installed) return;
  installed = true;
  const proto = EventTarget.prototype;
  const add = proto.addEventListener;
  proto.addEventListener = function (
    this: EventTarget,
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) {
    if (listener && PRESS.has(type)) {
      let types = heard.get(this);
      if (!types) heard.set(this, (types = new Set()));
      types.add(type);
    }
    return add.call(this, type, listener, options);
  };
}

const FRAMEWORK_PROPS = ['onClick', 'onMouseDown', 'onMouseUp', 'onPointerDown', 'onPointerUp', 'onDoubleClick'];
const VUE_INVOKERS = ['onClick', 'onMousedown', 'onMouseup', 'onPointerdown', 'onPointerup', 'onDblclick'];
const DELEGATED = ['__click', '__mousedown', '__pointerdown', '__pointerup', '$$click', '$$mousedown', '$$pointerdown'];

function frameworkHandler(el: Element): boolean {
  const record = el as unknown as Record<string, unknown>;
  if (DELEGATED.some((key) => typeof record[key] === 'function' || Array.isArray(record[key]))) return true;
  for (const key of Object.keys(el)) {
    if (key.startsWith('__reactProps$')) {
      const props = record[key] as Record<string, unknown> | undefined;
      if (props && FRAMEWORK_PROPS.some((p) => typeof props[p] === 'function')) return true;
    } else if (key === '_vei') {
      const invokers = record[key] as Record<string, unknown> | undefined;
      if (invokers && VUE_INVOKERS.some((p) => invokers[p])) return true;
    }
  }
  return false;
}

/** A React root (its container listens for every event on behalf of the whole tree). */
function reactRoot(el: Element): boolean {
  return Object.keys(el).some((key) => key.startsWith('__reactContainer$') || key === '_reactRootContainer');
}

/** Elements the browser itself acts on when pressed: links, buttons, form controls, labels, summaries, editables. */
function actsByItself(el: Element): boolean {
  if (isA(el, HTMLElement) && (el.isContentEditable || el.onclick || el.onmousedown || el.onpointerdown)) return true;
  if (el.localName === 'a' || el.localName === 'area') return el.hasAttribute('href');
  return ['button', 'input', 'select', 'textarea', 'label', 'summary', 'option', 'video', 'audio'].includes(
    el.localName,
  );
}

/** Whether `el` itself would hear a press: a noted listener, a framework handler, or the browser's own action. */
export function hearsPress(el: Element): boolean {
  if (['html', 'body'].includes(el.localName) || reactRoot(el)) return false;
  return actsByItself(el) || frameworkHandler(el) || Boolean(heard.get(el)?.size);
}

/**
 * Whether anything on the way from `el` up to the document (shadow hosts included) would hear a press. `false` is
 * only as good as the notes: the caller also checks that the page did not change before it reports that nothing
 * listened.
 */
export function listensForPress(el: Element): boolean {
  for (let node: Node | null = el; node; node = node.parentNode ?? (isA(node, ShadowRoot) ? node.host : null))
    if (isA(node, Element) && hearsPress(node)) return true;
  return false;
}

/**
 * Watches `doc` for any sign that a press did something: the DOM changed, focus moved, a value or a scroll
 * position changed. `changed()` answers after two frames, long enough for a framework's re-render.
 */
export function watchForChange(doc: Document): { changed(): Promise<boolean>; stop(): Promise<boolean> } {
  let mutated = false;
  const observer = new MutationObserver(() => (mutated = true));
  observer.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
  const focus = doc.activeElement;
  const scroll = `${doc.defaultView?.scrollX},${doc.defaultView?.scrollY}`;
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return {
    async changed() {
      await frame();
      await frame();
      observer.disconnect();
      return (
        mutated || doc.activeElement !== focus || `${doc.defaultView?.scrollX},${doc.defaultView?.scrollY}` !== scroll
      );
    },
    /** stops watching at once (the press was heard: nothing to report) */
    async stop() {
      observer.disconnect();
      return true;
    },
  };
}
