import type { Bridge } from '../../bridge/bridge.js';
import type { DevicePublicKey } from '../../bridge/protocol/index.js';
import { importProofKey, makeDeviceKey, signIn, type DeviceKeys } from '../../renderer/src/device/device-auth.js';
import { http } from './bridge.js';

/** A fresh pairing code from the desk (the human's token), as the QR link carries it. */
export async function pairingCode(bridge: Bridge): Promise<string> {
  const code = await http(`${bridge.url}/bridge/pairing`, { token: bridge.token, body: {} });
  return new URL((code.body as { url: string }).url).hash.replace('#code=', '');
}

/** A public key for pair/start, when the test never signs in with it. */
export async function somePublicKey(): Promise<DevicePublicKey> {
  return (await makeDeviceKey()).publicKey;
}

/**
 * Pairs a device over real HTTP with the window's own code (renderer/src/device/device-auth.ts, on Node's WebCrypto),
 * approving at the desk, and signs it in: its keys, and the session token its calls carry as a bearer.
 */
export async function pairDevice(
  bridge: Bridge,
  name = 'tablet',
): Promise<{ keys: DeviceKeys; token: string; deviceId: string; proofKey: string }> {
  const remote = bridge.remote?.url ?? '';
  const code = await pairingCode(bridge);
  const { signKey, publicKey } = await makeDeviceKey();
  const started = await http(`${remote}/bridge/pair/start`, { body: { code, name, publicKey } });
  if (started.status !== 200) throw new Error(`pair/start answered ${started.status}: ${JSON.stringify(started.body)}`);
  const { secret } = started.body as { secret: string };
  const waiting = await http(`${bridge.url}/bridge/devices`, { token: bridge.token });
  const requestId = (waiting.body as { pairings: Array<{ requestId: string }> }).pairings[0]?.requestId;
  await http(`${bridge.url}/bridge/pairing/approve`, { token: bridge.token, body: { requestId } });
  const approved = await http(`${remote}/bridge/pair/status`, { body: { secret } });
  const { deviceId, proofKey } = approved.body as { deviceId: string; proofKey: string };
  const keys = { deviceId, signKey, proofKey: await importProofKey(proofKey) };
  const signed = await signIn(`${remote}/aiti/`, keys);
  if (signed.kind !== 'signed-in') throw new Error(`the device could not sign in: ${signed.why}`);
  return { keys, token: signed.token, deviceId, proofKey };
}
