import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';

/** Issue 41, finding 8: page.js (250 KiB) went out uncompressed even to `Accept-Encoding: gzip`. */
const BUILT = readFileSync(new URL('../../dist/page/page.js', import.meta.url));

/** The raw bytes and headers, as they cross the wire (fetch would decompress them). */
function get(
  url: string,
  headers: Record<string, string>,
): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the page script on the wire', () => {
  it('goes gzip-compressed to a client that accepts it, and as it is to one that does not', async () => {
    const bridge = await startBridge();
    const zipped = await get(`${bridge.url}/aiti/page.js`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(String(zipped.headers.vary)).toMatch(/accept-encoding/i);
    expect(gunzipSync(zipped.body).equals(BUILT)).toBe(true);
    expect(zipped.body.length).toBeLessThan(BUILT.length / 2);

    const plain = await get(`${bridge.url}/aiti/page.js`, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(BUILT)).toBe(true);
  });
});
