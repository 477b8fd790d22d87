import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createOnce, replaceFile } from './private-files.js';

/**
 * The human's token (`token`), or the agents' (`agent-token`, used with --mcp-auth; it cannot answer asks): the
 * given one, else the one stored in the data dir, else a new one made there (0600). A new one is on disk (written,
 * fsynced, its directory fsynced) before it resolves, so the URL printed with it works after a power cut; it is made
 * with an exclusive link, so two first starts at once end up with the same token. An empty file (an older bridge
 * cut off while writing it) is replaced.
 */
export async function loadOrCreateToken(
  appDir: string,
  given?: string,
  name: 'token' | 'agent-token' = 'token',
): Promise<string> {
  if (given) return given;
  const file = join(appDir, name);
  let stored = '';
  try {
    stored = (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (stored) return stored;
  const token = randomBytes(24).toString('base64url');
  const made = (await createOnce(file, token + '\n', `could not keep the ${name}`)).trim();
  if (made) return made;
  await replaceFile(file, token + '\n', `could not keep the ${name}`);
  return token;
}

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Proof that a bridge holds `token` without sending it: HMAC of the asker's nonce and the port the bridge answers
 * on (so a squatter on the port cannot relay the question to a real bridge on another port).
 */
export function tokenProof(token: string, nonce: string, port: number): string {
  return createHmac('sha256', token).update(`aiti-token-proof\n${nonce}\n${port}`).digest('base64url');
}
