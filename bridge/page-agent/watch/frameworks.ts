/** Framework detection, reported on claim: globals and the marks each framework leaves on DOM nodes. */
type Probe = (w: Record<string, unknown>) => boolean;

function hasKeyPrefix(el: Element | null, prefixes: string[]): boolean {
  if (!el) return false;
  return Object.keys(el).some((key) => prefixes.some((prefix) => key.startsWith(prefix)));
}

function sampleElements(): Element[] {
  const picks = [document.body, ...document.querySelectorAll('body > *, #root, #app, #__next, #__nuxt, #svelte')];
  const all = document.body ? document.body.getElementsByTagName('*') : [];
  for (let i = 0; i < Math.min(all.length, 60); i++) {
    const el = all[i];
    if (el) picks.push(el);
  }
  return picks.filter((el): el is Element => Boolean(el));
}

const PROBES: Array<[string, Probe]> = [
  ['Next.js', (w) => Boolean(w.__NEXT_DATA__ || w.next || w.__next_f || document.getElementById('__next'))],
  ['Nuxt', (w) => Boolean(w.__NUXT__ || w.useNuxtApp || document.getElementById('__nuxt'))],
  [
    'React',
    (w) =>
      Boolean(w.React) ||
      sampleElements().some((el) => hasKeyPrefix(el, ['__reactFiber$', '__reactContainer$', '_reactRootContainer'])),
  ],
  ['Preact', (w) => Boolean(w.preact || w.__PREACT_DEVTOOLS__) || sampleElements().some((el) => '__k' in el)],
  [
    'Vue',
    (w) =>
      Boolean(w.__VUE__ || w.Vue) ||
      Boolean(document.querySelector('[data-v-app]')) ||
      sampleElements().some((el) => '__vue_app__' in el || '__vue__' in el || '__vueParentComponent' in el),
  ],
  [
    'Svelte',
    (w) =>
      Boolean(w.__svelte || w.__SVELTEKIT_PAYLOAD__) ||
      Boolean(document.querySelector('[class*="svelte-"]')) ||
      sampleElements().some((el) => '__svelte_meta' in el),
  ],
  ['Angular', (w) => Boolean(w.ng || w.getAllAngularRootElements) || Boolean(document.querySelector('[ng-version]'))],
  ['AngularJS', (w) => Boolean(w.angular)],
  ['Solid', (w) => Boolean(w._$HY || w.Solid$$) || Boolean(document.querySelector('[data-hk]'))],
  ['Lit', (w) => Boolean(w.litElementVersions || w.litHtmlVersions)],
  ['Alpine.js', (w) => Boolean(w.Alpine)],
  ['Ember', (w) => Boolean(w.Ember)],
  ['Astro', () => Boolean(document.querySelector('astro-island'))],
  ['jQuery', (w) => Boolean((w.jQuery as { fn?: { jquery?: string } } | undefined)?.fn?.jquery)],
  ['Vite', () => Boolean(document.querySelector('script[src*="/@vite/client"]'))],
  // component libraries, by the marks each leaves on what it renders
  ['Mantine', () => has('html[data-mantine-color-scheme], [class*="mantine-"]')],
  ['Angular Material', () => has('[class*="mat-mdc-"]')],
  ['MUI', () => has('[class*="MuiButtonBase-root"], [class*="MuiInputBase-root"], [class*="MuiPaper-root"]')],
  ['Ant Design', () => has('[class^="ant-"], [class*=" ant-"]')],
  ['Chakra UI', () => has('[class^="chakra-"], [class*=" chakra-"]')],
  ['React Aria', () => has('[data-rac]')],
  [
    'Radix UI',
    () => has('[data-radix-collection-item], [data-radix-popper-content-wrapper], [data-radix-select-viewport]'),
  ],
  ['Headless UI', () => has('[data-headlessui-state]')],
  ['shadcn/ui', () => has('[data-slot=button], [data-slot=form-item], [data-slot=select-trigger], [data-slot=input]')],
];

function has(selector: string): boolean {
  return Boolean(document.querySelector(selector));
}

export function detectFrameworks(): string[] {
  const w = window as unknown as Record<string, unknown>;
  const found: string[] = [];
  for (const [name, probe] of PROBES) {
    try {
      if (probe(w)) found.push(name);
    } catch {
      // a hostile getter on window: skip that probe
    }
  }
  return found;
}

/** how long after the agent starts a change to the DOM may still bring a framework in (an app that renders late) */
const RENDER_WATCH_MS = 60_000;
/** changes in a row are one detection: it runs this long after the first of them */
const RENDER_SETTLE_MS = 300;

/**
 * Detects again when the DOM changes in the first minute: an app that renders later than the timed detections
 * (a busy machine, a lazy route, data fetched first) is still named in bridge_status. One detection per burst of
 * changes, so a busy page costs a timer, not a scan per mutation.
 */
export function redetectWhileRendering(redetect: () => void): void {
  if (typeof MutationObserver !== 'function') return;
  let pending = false;
  const observer = new MutationObserver(() => {
    if (pending) return;
    pending = true;
    setTimeout(() => {
      pending = false;
      redetect();
    }, RENDER_SETTLE_MS);
  });
  observer.observe(document.documentElement, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['class'],
  });
  setTimeout(() => observer.disconnect(), RENDER_WATCH_MS);
}
