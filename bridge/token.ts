import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { privateDir, writePrivateFile } from './private-files.js';

/**
 * The human's token (`token`), or the agents' (`agent-token`, used with --mcp-auth; it cannot answer asks): the
 * given one, else the one stored in the data dir, else a new one written there (0600).
 */
export function loadOrCreateToken(appDir: string, given?: string, name: 'token' | 'agent-token' = 'token'): string {
  if (given) return given;
  const file = join(appDir, name);
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  privateDir(appDir);
  const token = randomBytes(24).toString('base64url');
  writePrivateFile(file, token + '\n');
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
