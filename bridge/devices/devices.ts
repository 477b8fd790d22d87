import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { DevicePublicKey } from '../protocol/index.js';
import { NotFound } from '../errors.js';
import { DiskError, replaceFile } from '../private-files.js';
import { visibleName } from './names.js';

/**
 * The devices paired with the desk (a phone, a laptop through a tunnel), the human's role on the remote listener.
 * Each holds a key pair its browser made, whose private half never leaves that browser's origin (scheme, host and
 * port): the bridge keeps the public half, and a key of its own to prove itself to that device with
 * (device-sessions.ts). Kept in `<appDir>/devices.json` (0600); only the bridge writes it. Revoking a device
 * forgets it, and the listeners close its streams at once. A device paired before keys (with a cookie) has no
 * `publicKey`: it is listed, so the desk can revoke it, and cannot sign in: pair it again.
 */
export interface Device {
  id: string;
  name: string;
  publicKey?: DevicePublicKey;
  /** HMAC-SHA256 key (base64url) the bridge proves itself to this device with */
  proofKey?: string;
  pairedAt: string;
  lastUsedAt?: string;
}

/** Last use is written at most this often (the window shows the exact time while the bridge runs). */
const WRITE_USE_EVERY_MS = 60_000;

export class Devices {
  private readonly devices = new Map<string, Device>();
  private readonly revokeListeners = new Set<(device: Device) => void>();
  private readonly changeListeners = new Set<() => void>();
  private useTimer?: NodeJS.Timeout;

  constructor(
    private readonly file: string,
    private readonly now: () => number = Date.now,
  ) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return; // nothing paired yet
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new Error(
        `${file} is not JSON (${(error as Error).message}); move it away to forget every paired device, then pair them again`,
      );
    }
    const list = (parsed as { devices?: unknown }).devices;
    for (const d of Array.isArray(list) ? (list as Array<Partial<Device>>) : []) {
      if (typeof d.id !== 'string' || typeof d.name !== 'string') continue;
      this.devices.set(d.id, {
        id: d.id,
        // a name kept before names were cleaned shows its hidden characters too
        name: visibleName(d.name),
        ...(d.publicKey && typeof d.proofKey === 'string' ? { publicKey: d.publicKey, proofKey: d.proofKey } : {}),
        pairedAt: String(d.pairedAt),
        ...(typeof d.lastUsedAt === 'string' ? { lastUsedAt: d.lastUsedAt } : {}),
      });
    }
  }

  list(): Device[] {
    return [...this.devices.values()].sort((a, b) => (a.pairedAt < b.pairedAt ? 1 : -1));
  }

  /**
   * Pairs a new device by its public key: on disk (fsynced, with its directory) before it resolves. A DiskError
   * says what is on disk: nothing (the device is not paired), or the device in the file unconfirmed — then it is
   * paired here too (`error.paired` holds it), as it will be after a restart.
   */
  async add(name: string, publicKey: DevicePublicKey): Promise<Device> {
    const id = randomBytes(8).toString('hex');
    const proofKey = randomBytes(32).toString('base64url');
    const device: Device = { id, name, publicKey, proofKey, pairedAt: new Date(this.now()).toISOString() };
    this.devices.set(id, device);
    try {
      await this.save(`could not pair device "${name}"`);
    } catch (error) {
      if (error instanceof DiskError && error.outcome === 'unconfirmed') {
        this.changed();
        throw Object.assign(error, { paired: device });
      }
      this.devices.delete(id);
      throw error;
    }
    this.changed();
    return device;
  }

  get(id: string): Device | undefined {
    return this.devices.get(id);
  }

  /** Marks a device's use (written at most once a minute). */
  used(device: Device): void {
    device.lastUsedAt = new Date(this.now()).toISOString();
    this.useTimer ??= setTimeout(() => {
      this.useTimer = undefined;
      void this.saveQuietly();
    }, WRITE_USE_EVERY_MS).unref();
  }

  /** Forgets a device, on disk before it resolves (a DiskError 'unconfirmed': forgotten here too, as in the file). */
  async revoke(id: string): Promise<Device> {
    const device = this.devices.get(id);
    if (!device) {
      const known = this.list().map((d) => `${d.id} (${d.name})`);
      throw new NotFound(
        `no paired device "${id}"; ${known.length ? `paired: ${known.join(', ')}` : 'none is paired'}`,
        'deviceId',
      );
    }
    this.devices.delete(id);
    try {
      await this.save(`could not forget device "${device.name}"`);
    } catch (error) {
      if (!(error instanceof DiskError && error.outcome === 'unconfirmed')) {
        this.devices.set(id, device);
        throw error;
      }
      for (const listener of this.revokeListeners) listener(device);
      this.changed();
      throw error;
    }
    for (const listener of this.revokeListeners) listener(device);
    this.changed();
    return device;
  }

  onRevoke(listener: (device: Device) => void): () => void {
    this.revokeListeners.add(listener);
    return () => this.revokeListeners.delete(listener);
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Writes the last uses still owed (the bridge is stopping). */
  async close(): Promise<void> {
    if (this.useTimer) {
      clearTimeout(this.useTimer);
      this.useTimer = undefined;
      await this.saveQuietly();
    }
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  private async saveQuietly(): Promise<void> {
    try {
      await this.save('last use');
    } catch {
      // last use is a convenience; the next pairing or revoke writes it again
    }
  }

  /** The whole list, written to a temporary file, fsynced, renamed over the old one, its directory fsynced. */
  private save(what: string): Promise<void> {
    return replaceFile(this.file, JSON.stringify({ devices: this.list() }, null, 2) + '\n', what);
  }
}
