import { createHmac, randomBytes, randomInt } from 'node:crypto';
import type { DevicePublicKey } from '../protocol/index.js';
import { Conflict, Forbidden, Invalid, NotFound, RateLimited } from '../errors.js';
import { sameSecret } from '../token.js';
import type { Device, Devices } from './devices.js';
import { visibleName } from './names.js';

/**
 * Pairing a device in one scan: the desk window asks for a one-time code (144 random bits, 2 minutes, used once)
 * and shows it as a QR code of `<remote base>/aiti/ui/pair#code=…` (in the fragment, so no server or proxy log
 * sees it). The device first has the bridge prove it holds the code (`codeProof`: a program on the port gets no
 * code), then sends it with a name and its public key; the desk window shows an approval card with a check
 * phrase the device shows too, so the human approves the device in their hand and not one that raced it to the
 * code. On approval the device collects its id and the bridge's proof key once (device-sessions.ts).
 */
export const CODE_TTL_MS = 2 * 60_000;
/** How long a device waits for the desk's answer, and then to collect its token. */
export const REQUEST_TTL_MS = 2 * 60_000;
/**
 * Wrong codes from everyone together: 5 at once, then one every 10 s. The right code is never counted: 144 random
 * bits need no rate limit, and counting it let anyone who reaches the listener keep the real phone out.
 */
export const ATTEMPT_BURST = 5;
export const ATTEMPT_EVERY_MS = 10_000;

const WORDS = [
  'amber',
  'apple',
  'arrow',
  'aspen',
  'badge',
  'basil',
  'birch',
  'bison',
  'cedar',
  'chalk',
  'cider',
  'cloud',
  'coral',
  'crane',
  'daisy',
  'delta',
  'dune',
  'eagle',
  'ember',
  'fern',
  'finch',
  'flint',
  'frost',
  'grape',
  'heron',
  'honey',
  'ivory',
  'jade',
  'kite',
  'lemon',
  'lilac',
  'lotus',
  'maple',
  'marsh',
  'mint',
  'moss',
  'noble',
  'oak',
  'olive',
  'onyx',
  'otter',
  'pearl',
  'pine',
  'plum',
  'quartz',
  'raven',
  'reef',
  'river',
  'robin',
  'sage',
  'shell',
  'slate',
  'solar',
  'spruce',
  'stone',
  'swan',
  'thyme',
  'tiger',
  'tulip',
  'violet',
  'wheat',
  'willow',
  'wren',
  'zephyr',
];

/** Three words and a number: easy to compare across two screens at a glance. */
export function checkPhrase(): string {
  const word = () => WORDS[randomInt(WORDS.length)] ?? 'oak';
  return `${word()} ${word()} ${word()} ${randomInt(10, 100)}`;
}

export type PairingState = 'waiting' | 'approved' | 'refused' | 'expired' | 'collected';

export interface PairingRequest {
  /** what the desk names the request by */
  id: string;
  /** what the device holds to collect its token: never shown to the desk or sent anywhere else */
  secret: string;
  name: string;
  phrase: string;
  startedAt: number;
  state: PairingState;
  publicKey: DevicePublicKey;
  device?: Device;
}

export interface PairingOptions {
  devices: Pick<Devices, 'add'>;
  /** a request appeared or changed (the desk's approval cards) */
  onChange(): void;
  now?: () => number;
}

export class Pairings {
  private code?: { value: string; expiresAt: number };
  /** proves nothing when no code is open, and says as much to nobody */
  private readonly decoyCode = randomBytes(18).toString('base64url');
  private readonly requests = new Map<string, PairingRequest>();
  /** requests whose device is being written: a second yes meanwhile is refused */
  private readonly approving = new Set<string>();
  private attempts = ATTEMPT_BURST;
  private refilledAt: number;
  private readonly now: () => number;

  constructor(private readonly options: PairingOptions) {
    this.now = options.now ?? Date.now;
    this.refilledAt = this.now();
  }

  /** A fresh one-time code (the one shown before stops working). */
  openCode(): { code: string; expiresAt: number } {
    const value = randomBytes(18).toString('base64url');
    this.code = { value, expiresAt: this.now() + CODE_TTL_MS };
    return { code: value, expiresAt: this.code.expiresAt };
  }

  /** The bridge holds the code the device is about to send: an HMAC of the device's nonce keyed with the code. */
  codeProof(nonce: string): string {
    const open = this.code && this.code.expiresAt > this.now() ? this.code.value : this.decoyCode;
    return createHmac('sha256', open).update(`aiti-pair-proof\n${nonce}`).digest('base64url');
  }

  /** The device's step: a code, its name and its key. Refuses a wrong, used or old code; wrong ones past the rate. */
  start(code: string, name: string, publicKey: DevicePublicKey): PairingRequest {
    const open = this.code;
    if (!open || !sameSecret(open.value, code)) {
      this.spendAttempt();
      throw new Forbidden(
        'this pairing code is not the one the desk window shows (it was used already, or replaced): press "Pair a device" there again and scan the new code',
        'code',
      );
    }
    this.code = undefined;
    if (open.expiresAt <= this.now())
      throw new Forbidden(
        'this pairing code is more than 2 minutes old: press "Pair a device" in the desk window again and scan the new code',
        'code',
      );
    const cleanName = visibleName(name);
    if (!cleanName) throw new Invalid('name the device (e.g. "Ana\'s phone") so the desk knows which it is', 'name');
    this.sweep();
    const request: PairingRequest = {
      id: randomBytes(8).toString('hex'),
      secret: randomBytes(24).toString('base64url'),
      name: cleanName,
      phrase: checkPhrase(),
      startedAt: this.now(),
      state: 'waiting',
      publicKey,
    };
    this.requests.set(request.id, request);
    this.options.onChange();
    return request;
  }

  /**
   * The desk's yes: the device is paired (on disk) now, and its id waits to be collected. When the disk did not
   * confirm it, the device is paired all the same (it is in the file) and the error says so.
   */
  async approve(id: string): Promise<Device> {
    const request = this.waiting(id);
    let device: Device;
    this.approving.add(id);
    try {
      device = await this.options.devices.add(request.name, request.publicKey);
    } catch (error) {
      const kept = (error as { paired?: Device }).paired;
      if (kept) this.approved(request, kept);
      throw error;
    } finally {
      this.approving.delete(id);
    }
    this.approved(request, device);
    return device;
  }

  private approved(request: PairingRequest, device: Device): void {
    request.state = 'approved';
    request.device = device;
    this.options.onChange();
  }

  refuse(id: string): void {
    this.waiting(id).state = 'refused';
    this.options.onChange();
  }

  /** What the device sees of its request; an approved one hands over its device here, once. */
  collect(secret: string): { state: PairingState; request?: PairingRequest; device?: Device } {
    this.sweep();
    const request = [...this.requests.values()].find((r) => sameSecret(r.secret, secret));
    if (!request) return { state: 'expired' };
    if (request.state === 'approved' && request.device) {
      const device = request.device;
      request.state = 'collected';
      this.requests.delete(request.id);
      return { state: 'approved', request, device };
    }
    return { state: request.state, request };
  }

  /** Requests the desk is to answer, oldest first. */
  pending(): PairingRequest[] {
    this.sweep();
    return [...this.requests.values()].filter((r) => r.state === 'waiting');
  }

  private waiting(id: string): PairingRequest {
    this.sweep();
    const request = this.requests.get(id);
    if (!request)
      throw new NotFound(`no pairing request "${id}" (it took longer than 2 minutes, or was answered)`, 'requestId');
    if (request.state !== 'waiting') throw new Conflict(`pairing request "${id}" was ${request.state} already`);
    if (this.approving.has(id)) throw new Conflict(`pairing request "${id}" is being approved already`);
    return request;
  }

  /** Forgets requests past their time; a waiting one that expires leaves the desk's cards. */
  private sweep(): void {
    const now = this.now();
    let changed = false;
    for (const [id, request] of this.requests) {
      if (now - request.startedAt < REQUEST_TTL_MS) continue;
      if (request.state === 'waiting') changed = true;
      this.requests.delete(id);
    }
    if (changed) this.options.onChange();
  }

  private spendAttempt(): void {
    const now = this.now();
    const refill = Math.floor((now - this.refilledAt) / ATTEMPT_EVERY_MS);
    if (refill > 0) {
      this.attempts = Math.min(ATTEMPT_BURST, this.attempts + refill);
      this.refilledAt += refill * ATTEMPT_EVERY_MS;
    }
    if (this.attempts <= 0) {
      const wait = Math.ceil((this.refilledAt + ATTEMPT_EVERY_MS - now) / 1000);
      throw new RateLimited(
        `too many wrong pairing codes; try again in ${wait} s (at most ${ATTEMPT_BURST} at once, then one every ${ATTEMPT_EVERY_MS / 1000} s; the right code is never refused for this)`,
        'code',
        Math.max(1, wait),
      );
    }
    this.attempts -= 1;
  }
}
