import { useSyncExternalStore } from 'react';
import type { DevicesEvent } from '../../../bridge/protocol/index.js';

/**
 * The desk's `devices` event (only the desk's stream carries it): the last one, for the Devices panel and the
 * approval cards. A device's window never gets one, so those stay empty there.
 */
let current: DevicesEvent | undefined;
const listeners = new Set<() => void>();

export function publishDevices(event: DevicesEvent): void {
  current = event;
  for (const listener of listeners) listener();
}

export function useDevicesFeed(): DevicesEvent | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}
