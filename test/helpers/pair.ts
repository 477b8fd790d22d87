import type { Bridge } from '../../bridge/bridge.js';
import { http } from './bridge.js';

/**
 * Pairs a device over real HTTP as the phone's pairing page does (the code from the desk's link, a name), approved
 * at the desk; returns the device's cookie header. The bridge needs its remote listener.
 */
export async function pairDevice(bridge: Bridge, name: string): Promise<string> {
  const remote = bridge.remote?.url ?? '';
  const code = await http(`${bridge.url}/bridge/pairing`, { token: bridge.token, body: {} });
  const link = (code.body as { url: string }).url;
  const started = await http(`${remote}/bridge/pair/start`, {
    body: { code: new URL(link).hash.replace('#code=', ''), name },
  });
  const { secret } = started.body as { secret: string };
  const waiting = await http(`${bridge.url}/bridge/devices`, { token: bridge.token });
  const requestId = (waiting.body as { pairings: Array<{ requestId: string }> }).pairings[0]?.requestId;
  await http(`${bridge.url}/bridge/pairing/approve`, { token: bridge.token, body: { requestId } });
  const approved = await http(`${remote}/bridge/pair/status`, { body: { secret } });
  return (approved.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}
