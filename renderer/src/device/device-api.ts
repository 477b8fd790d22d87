import { WhoAmIAnswer, type WhoAmIAnswer as WhoAmI } from '../../../bridge/protocol/index.js';
import type { PeerProof } from '../token-proof.js';

/**
 * The window on a paired device, served by the remote listener, holds no token at all: the device token is an
 * HttpOnly cookie the browser sends to this origin only (SameSite=Strict; Secure over HTTPS), which the window's
 * scripts can neither read nor leak, so there is nothing for them to prove before sending. Before every
 * (re)connection the window asks who it is instead: a device revoked at the desk is told so, and stops.
 */
export async function whoAmI(base: string): Promise<WhoAmI | undefined> {
  try {
    const res = await fetch(new URL('bridge/whoami', base), { credentials: 'same-origin', cache: 'no-store' });
    if (!res.ok) return undefined;
    const parsed = WhoAmIAnswer.safeParse(await res.json());
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Said when the desk revoked this device (or it was never paired with this bridge). */
export const UNPAIRED = 'this device is no longer paired with the bridge (it was revoked at the desk): pair it again';

/** The device's check before each connection: still paired (`proven`), revoked (`impostor`, with why), or down. */
export async function proveDevice(base: string): Promise<PeerProof> {
  try {
    const res = await fetch(new URL('bridge/whoami', base), { credentials: 'same-origin', cache: 'no-store' });
    await res.body?.cancel();
    if (res.ok) return { kind: 'proven' };
    if (res.status === 401) return { kind: 'impostor', why: UNPAIRED };
    return { kind: 'unreachable', why: `HTTP ${res.status}` };
  } catch (error) {
    return { kind: 'unreachable', why: error instanceof Error ? error.message : String(error) };
  }
}
