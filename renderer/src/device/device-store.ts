import type { DeviceKeys } from './device-auth.js';

/**
 * Where a paired device keeps its keys: IndexedDB, which belongs to the window's origin (scheme, host and port,
 * unlike a cookie, which every port of the host shares). The keys are CryptoKeys made non-extractable: the
 * browser stores them for this origin and uses them, and nothing, not even this origin's own scripts, can read
 * their bytes, so there is no credential to copy.
 */
const DB = 'aiti-device';
const STORE = 'keys';
const KEY = 'device';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB would not open'));
  });
}

async function run<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = act(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB failed'));
    });
  } finally {
    db.close();
  }
}

function isKeys(value: unknown): value is DeviceKeys {
  if (!value || typeof value !== 'object') return false;
  const keys = value as Partial<DeviceKeys>;
  return typeof keys.deviceId === 'string' && keys.signKey instanceof CryptoKey && keys.proofKey instanceof CryptoKey;
}

/** This origin's device keys, if it was paired (and its storage kept). */
export async function loadDeviceKeys(): Promise<DeviceKeys | undefined> {
  if (typeof indexedDB === 'undefined') return undefined;
  try {
    const found = await run('readonly', (store) => store.get(KEY) as IDBRequest<unknown>);
    return isKeys(found) ? found : undefined;
  } catch {
    return undefined;
  }
}

export async function saveDeviceKeys(keys: DeviceKeys): Promise<void> {
  await run('readwrite', (store) => store.put(keys, KEY));
}
