import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Logger } from '../log.js';
import { appendLine } from '../private-files.js';
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
 * `<appDir>/agent-ids.jsonl` (0600), one line per change appended (appends that meet share one write and one
 * fsync, off the main thread: private-files.ts), so a session's id stays its own and a chosen id can be taken back
 * with its key after a bridge restart. Ids used only by stateless calls are not recorded: they carry no identity
 * to protect.
 */
export class AgentClaims {
  private readonly entries = new Map<string, Entry>();
  /** ids whose key is being written: a second aiti_hello for one gets none meanwhile */
  private readonly issuing = new Set<string>();

  /** Reads the file; a line that is no claim is skipped with a warning naming it, and the rest still counts. */
  constructor(
    private readonly file: string,
    private readonly log: Pick<Logger, 'warn'>,
  ) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return; // no ids taken yet
    }
    text.split('\n').forEach((line, index) => {
      // the empty line after the last one
      if (!line) return;
      const claim = claimOf(line);
      if (typeof claim === 'string')
        log.warn(`line ${index + 1} of ${file} ${claim}; skipped (the other lines are read as usual)`);
      else this.entries.set(claim.id, claim.entry);
    });
    // a last line a crash cut short is ended by the next append (private-files.ts appendLine)
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

  /**
   * Remembers that a session took this id, the first time only: at once in memory (the session speaks for it now),
   * and on disk in the background (a session's first request does not wait for an fsync; nothing is promised to
   * anyone about it, and a line the disk refuses is said in the log).
   */
  record(agentId: string, owner: AgentOwner): void {
    if (this.entries.has(agentId)) return;
    const entry = { owner };
    this.entries.set(agentId, entry);
    this.write(agentId, entry).catch((error: unknown) =>
      this.log.warn(`agent id ${JSON.stringify(agentId)} is not kept for a restart: ${(error as Error).message}`),
    );
  }

  /**
   * A new agentKey for an id that has none, resolved once it is on disk (a key the file does not hold would be gone
   * after a restart, and the id free to take); undefined when it has one (only its holder may pass it on). Rejects
   * (DiskError, 503) when it cannot be written: then no key is taken.
   */
  async issueKey(agentId: string, owner: AgentOwner): Promise<string | undefined> {
    const entry = this.entries.get(agentId);
    if (entry?.keyHash || this.issuing.has(agentId)) return undefined;
    const key = randomBytes(24).toString('base64url');
    const next = { owner: entry?.owner ?? owner, keyHash: hashOf(key) };
    this.issuing.add(agentId);
    try {
      await this.write(agentId, next);
    } finally {
      this.issuing.delete(agentId);
    }
    this.entries.set(agentId, next);
    return key;
  }

  private write(agentId: string, entry: Entry): Promise<void> {
    return appendLine(this.file, JSON.stringify({ id: agentId, ...entry }) + '\n', {
      what: `could not keep agent id ${JSON.stringify(agentId)}`,
    });
  }
}

/** One line of the file as a claim, or what is wrong with it (for the warning). */
export function claimOf(line: string): { id: string; entry: Entry } | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return 'is not JSON (a write cut short by a crash?)';
  }
  const { id, owner, keyHash } = (parsed ?? {}) as { id?: unknown; owner?: unknown; keyHash?: unknown };
  if (typeof id !== 'string') return 'names no agent id';
  if (owner !== 'session' && owner !== 'stateless')
    return `gives agent id ${JSON.stringify(id)} the owner ${JSON.stringify(owner) ?? 'none'}, not "session" or "stateless"`;
  if (keyHash !== undefined && typeof keyHash !== 'string')
    return `gives agent id ${JSON.stringify(id)} a key hash that is no string`;
  return { id, entry: { owner, keyHash } };
}

function hashOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
