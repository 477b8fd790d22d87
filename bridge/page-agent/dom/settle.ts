/** Resolves once the page has not changed for `quietMs` (a re-render, a dialog opening), or after `maxMs`. */
export function settled(maxMs: number, quietMs = 40): Promise<void> {
  if (maxMs <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const quietFor = Math.min(quietMs, maxMs);
    const done = () => {
      observer.disconnect();
      clearTimeout(quiet);
      clearTimeout(cap);
      resolve();
    };
    let quiet = setTimeout(done, quietFor);
    const cap = setTimeout(done, maxMs);
    const observer = new MutationObserver(() => {
      clearTimeout(quiet);
      quiet = setTimeout(done, quietFor);
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}
