import { describe, expect, it } from 'vitest';
import type { AitiDesktopApi } from '../../electron/channels.js';
import type { AitiHost } from '../../renderer/src/host.js';

/**
 * The window's AitiHost (renderer/src/host.ts) and the preload's AitiDesktopApi (electron/channels.ts) are written
 * in two runtimes that cannot import each other. These assertions are checked by `tsc -p test`, the project that
 * sees both: if either side changes a method or its types, the typecheck fails here.
 */
type Extends<T, U> = [T] extends [U] ? true : false;

/** the preload's api is a host the window can use as it is */
const preloadServesTheWindow: Extends<AitiDesktopApi, AitiHost> = true;
/** every method the window may call is one the preload exposes (a method only the window knows would be dead) */
const noMethodOnlyTheWindowKnows: Extends<Exclude<keyof AitiHost, keyof AitiDesktopApi>, never> = true;
/** and what the preload exposes, the window describes (no undocumented channel) */
const noMethodOnlyThePreloadHas: Extends<Exclude<keyof AitiDesktopApi, keyof AitiHost>, never> = true;
/** the listeners carry the same requests on both sides */
const sameComposeRequest: Extends<
  Parameters<Parameters<AitiDesktopApi['onCompose']>[0]>[0],
  Parameters<Parameters<NonNullable<AitiHost['onCompose']>>[0]>[0]
> = true;
const sameOpenAskRequest: Extends<
  Parameters<Parameters<AitiDesktopApi['onOpenAsk']>[0]>[0],
  Parameters<Parameters<NonNullable<AitiHost['onOpenAsk']>>[0]>[0]
> = true;

describe('the window host and the desktop preload', () => {
  it('agree at compile time (tsc -p test checks the assertions in this file)', () => {
    expect([
      preloadServesTheWindow,
      noMethodOnlyTheWindowKnows,
      noMethodOnlyThePreloadHas,
      sameComposeRequest,
      sameOpenAskRequest,
    ]).toEqual([true, true, true, true, true]);
  });
});
