import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { appendPrivateLine, PRIVATE_DIR } from '../private-files.js';
import { sameSecret } from '../token.js';

/** Who first took an agent id: a session (its client's own name or an aiti_hello) or a stateless caller. */
export type AgentOwner = 'session' | 'stateless';

interface Entry {
  owner: AgentOwner;
  /** sha256 of the agentKey aiti_hello returned when it took this id (the key itself is never stored) */
  keyHash?: string;
}

/**
 * Which agent ids sessions have taken, and the hash of each chosen id's agentKey. Kept in
 * `<appDir>/agent-ids.jsonl` (0600), one line per change appended (a flood of new ids costs one short append
 * each, never a rewrite), so a session's id stays its own and a chosen id can be taken back with its key after a
 * bridge restart. Ids used only by stateless calls are not recorded: they carry no identity to protect.
 */
export class AgentClaims {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly file: string) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return; // no ids taken yet
    }
    for (const line of text.split('\n')) {
      try {
        const entry = JSON.parse(line) as Partial<Entry> & { id?: unknown };
        if (typeof entry.id !== 'string' || (entry.owner !== 'session' && entry.owner !== 'stateless')) continue;
        this.entries.set(entry.id, {
          owner: entry.owner,
          ...(typeof entry.keyHash === 'string' ? { keyHash: entry.keyHash } : {}),
        });
      } catch {
        // the empty line after the last one, or a torn last line (a crash mid-append): that id is free again,
        // nothing else is lost
      }
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

  /** Remembers that a session took this id, the first time only. */
  record(agentId: string, owner: AgentOwner): void {
    if (this.entries.has(agentId)) return;
    this.set(agentId, { owner });
  }

  /** A new agentKey for an id that has none; undefined when it has one (only its holder may pass it on). */
  issueKey(agentId: string, owner: AgentOwner): string | undefined {
    const entry = this.entries.get(agentId);
    if (entry?.keyHash) return undefined;
    const key = randomBytes(24).toString('base64url');
    this.set(agentId, { owner: entry?.owner ?? owner, keyHash: hashOf(key) });
    return key;
  }

  private set(agentId: string, entry: Entry): void {
    // on disk first: a key the file does not hold would be gone after a restart, and the id free to take
    mkdirSync(dirname(this.file), { recursive: true, mode: PRIVATE_DIR });
    appendPrivateLine(this.file, JSON.stringify({ id: agentId, ...entry }) + '\n');
    this.entries.set(agentId, entry);
  }
}

function hashOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
