/**
 * A Content-Security-Policy that blocks the bridge makes every request fail silently; say once, plainly, what
 * the page has to allow. Returns a check the connection uses to stop retrying what can never work.
 */
export function watchCsp(base: string): () => boolean {
  let blocked = false;
  const origin = new URL(base).origin;
  document.addEventListener('securitypolicyviolation', (event) => {
    if (blocked || !event.blockedURI.startsWith(origin)) return;
    blocked = true;
    const directive = event.effectiveDirective || event.violatedDirective;
    // eslint-disable-next-line no-console -- the one message a developer needs to see in DevTools
    console.warn(
      `[aiti] This page's Content-Security-Policy (${directive}) blocks the AITI bridge at ${origin}, so the agent ` +
        `cannot reach this page. In development, add ${origin} to connect-src (and to script-src if you load ` +
        `page.js from it), e.g. "connect-src 'self' ${origin}; script-src 'self' ${origin}".`,
    );
  });
  return () => blocked;
}
