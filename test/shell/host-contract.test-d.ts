import { describe, expectTypeOf, it } from 'vitest';
import type { AitiDesktopApi } from '../../electron/channels.js';
import type { AitiHost } from '../../renderer/src/host.js';

/**
 * The window's AitiHost (renderer/src/host.ts) and the preload's AitiDesktopApi (electron/channels.ts) are written
 * in two runtimes that cannot import each other. These are type tests: vitest's typecheck mode runs tsc over
 * them in `npm test`, so a change on either side that breaks the contract fails the test run.
 */
type ComposeListener<H extends { onCompose?: unknown }> = Parameters<
  Extract<H['onCompose'], (...args: never[]) => unknown>
>[0];
type OpenAskListener<H extends { onOpenAsk?: unknown }> = Parameters<
  Extract<H['onOpenAsk'], (...args: never[]) => unknown>
>[0];

describe('the window host and the desktop preload', () => {
  it("the preload's api is a host the window can use as it is", () => {
    expectTypeOf<AitiDesktopApi>().toExtend<AitiHost>();
  });

  it('every method the window may call is one the preload exposes, and the preload exposes nothing the window does not describe', () => {
    expectTypeOf<Exclude<keyof AitiHost, keyof AitiDesktopApi>>().toEqualTypeOf<never>();
    expectTypeOf<Exclude<keyof AitiDesktopApi, keyof AitiHost>>().toEqualTypeOf<never>();
  });

  it('the listeners carry the same requests on both sides', () => {
    expectTypeOf<Parameters<ComposeListener<AitiDesktopApi>>[0]>().toEqualTypeOf<
      Parameters<ComposeListener<AitiHost>>[0]
    >();
    expectTypeOf<Parameters<OpenAskListener<AitiDesktopApi>>[0]>().toEqualTypeOf<
      Parameters<OpenAskListener<AitiHost>>[0]
    >();
  });
});
