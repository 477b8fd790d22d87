import type { PeerProof } from '../token-proof.js';
import { signIn, UNPAIRED, type DeviceKeys } from './device-auth.js';

export { UNPAIRED };

/**
 * The window on a paired device: every proof is a sign-in (device-auth.ts), in which the bridge proves itself
 * before the device signs anything; calls and the stream then carry the session it opened, which lives in this
 * page's memory only. Sign-ins asked at the same time share one round trip.
 */
export function deviceSignIn(
  base: string,
  keys: DeviceKeys,
): { prove(): Promise<PeerProof>; session(): string | undefined } {
  let token: string | undefined;
  let pending: Promise<PeerProof> | undefined;
  const prove = (): Promise<PeerProof> =>
    (pending ??= signIn(base, keys)
      .then((result): PeerProof => {
        if (result.kind !== 'signed-in') return result;
        token = result.token;
        return { kind: 'proven' };
      })
      .finally(() => (pending = undefined)));
  return { prove, session: () => token };
}
