import { describe, expect, it } from 'vitest';
import { setupSingleInstance } from '../../electron/single-instance.js';
import { setupWindow } from '../../electron/window.js';
import { FakeWindow } from './fakes.js';

/** Two launches of the app share one lock, as Electron's requestSingleInstanceLock does across processes. */
function fakeAppPair() {
  const lock = { taken: false };
  class FakeApp {
    quitted = false;
    private secondInstance: ((event: unknown, argv: string[]) => void) | undefined;
    requestSingleInstanceLock(): boolean {
      if (lock.taken) return false;
      lock.taken = true;
      return true;
    }
    on(_event: 'second-instance', listener: (event: unknown, argv: string[]) => void) {
      this.secondInstance = listener;
      return this;
    }
    quit() {
      this.quitted = true;
    }
    /** what Electron does in the first instance when a second one asks for the lock */
    launchedAgain(argv: string[]) {
      this.secondInstance?.({}, argv);
    }
  }
  return { first: new FakeApp(), second: new FakeApp() };
}

describe('single instance', () => {
  it('a second launch quits and brings the first one window forward', async () => {
    const { first, second } = fakeAppPair();
    let window: FakeWindow | undefined;
    const handedOver: string[][] = [];
    expect(
      setupSingleInstance({
        app: first,
        onSecondInstance: (argv) => {
          handedOver.push(argv);
          control.show();
        },
      }),
    ).toBe(true);
    const control = setupWindow({
      createWindow: (options) => (window = new FakeWindow(options)),
      openExternal: async () => undefined,
      url: 'http://127.0.0.1:8777/aiti/ui/',
      preload: '/p.cjs',
      isQuitting: () => false,
      hidden: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(window?.visible).toBe(false);

    expect(setupSingleInstance({ app: second, onSecondInstance: () => undefined })).toBe(false);
    expect(second.quitted).toBe(true);
    first.launchedAgain(['/opt/aiti', '--port', '9000']);

    expect(first.quitted).toBe(false);
    expect(window?.visible).toBe(true);
    expect(handedOver).toEqual([['/opt/aiti', '--port', '9000']]);
  });
});
