import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../log.js';
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

  /** Reads the file; a line that is no claim is skipped with a warning naming it, and the rest still counts. */
  constructor(
    private readonly file: string,
    log: Pick<Logger, 'warn'>,
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
    if (!text.endsWith('\n')) endTornLine(file, log);
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

/**
 * Ends a last line a crash cut short, so the next claim starts a line of its own: appended to the fragment, it
 * would be read as part of it, and lost, at the next start.
 */
function endTornLine(file: string, log: Pick<Logger, 'warn'>): void {
  try {
    appendPrivateLine(file, '\n');
  } catch (error) {
    log.warn(
      `cannot end the torn last line of ${file} (${(error as Error).message}); the next id taken may not survive a restart`,
    );
  }
}

function hashOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
