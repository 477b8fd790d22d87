import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { sameSecret } from '../token.js';

/** Who first took an agent id: a session (its client's own name or an aiti_hello) or a stateless caller. */
export type AgentOwner = 'session' | 'stateless';

interface Entry {
  owner: AgentOwner;
  /** sha256 of the agentKey aiti_hello returned when it took this id (the key itself is never stored) */
  keyHash?: string;
}

/**
 * Which agent ids have been taken, by what kind of caller, and the hash of each chosen id's agentKey. Kept in
 * `<appDir>/agent-ids.json` (0600) so a chosen id can be taken back with its key after a bridge restart.
 */
export class AgentClaims {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly file: string) {
    try {
      const stored = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      if (stored && typeof stored === 'object') {
        for (const [id, value] of Object.entries(stored as Record<string, unknown>)) {
          const entry = value as Partial<Entry>;
          if (entry.owner === 'session' || entry.owner === 'stateless')
            this.entries.set(id, {
              owner: entry.owner,
              ...(typeof entry.keyHash === 'string' ? { keyHash: entry.keyHash } : {}),
            });
        }
      }
    } catch {
      // no ids taken yet
    }
  }

  owner(agentId: string): AgentOwner | undefined {
    return this.entries.get(agentId)?.owner;
  }

  hasKey(agentId: string): boolean {
    return Boolean(this.entries.get(agentId)?.keyHash);
  }

  verifyKey(agentId: string, key: string): boolean {
    const hash = this.entries.get(agentId)?.keyHash;
    return Boolean(hash && sameSecret(hash, hashOf(key)));
  }

  /** Remembers who took an id, the first time only. */
  record(agentId: string, owner: AgentOwner): void {
    if (this.entries.has(agentId)) return;
    this.entries.set(agentId, { owner });
    this.save();
  }

  /** A new agentKey for an id that has none; undefined when it has one (only its holder may pass it on). */
  issueKey(agentId: string, owner: AgentOwner): string | undefined {
    const entry = this.entries.get(agentId);
    if (entry?.keyHash) return undefined;
    const key = randomBytes(24).toString('base64url');
    this.entries.set(agentId, { owner: entry?.owner ?? owner, keyHash: hashOf(key) });
    this.save();
    return key;
  }

  private save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.entries), null, 2), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }
}

function hashOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
