import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { credentialHash, credentialProof, matchesHash, mintCredential, parseCredential } from '../credentials.js';
import { Conflict, Invalid, NotFound } from '../errors.js';
import { appendLine, PRIVATE_DIR, privateDir } from '../private-files.js';

/**
 * Agent tokens: one per agent on another machine (`aiti-bridge agent-token create NAME`), bound to the agent id
 * NAME, so on the remote listener an agent is who its token says and not what its clientInfo claims. Kept in
 * `<appDir>/agent-tokens.jsonl` (0600), one line per change: the CLI appends while the bridge runs, and the bridge
 * reads the lines again whenever the file changes, so a token revoked from a terminal is refused at once. Only the
 * sha256 of each token is written; the token itself is shown once, when it is made.
 *
 * A token is made in two steps: its `create` line (marked `pending`) is on disk before the token is shown, and a
 * `shown` line follows once it was (printed, or answered to the desk). A token whose `shown` line never came (the
 * command was killed in between) is half-made: it still works for whoever holds it (its first use makes it whole),
 * but it holds no name — the next `create` of that name revokes it.
 */
export interface AgentTokenRecord {
  id: string;
  /** the agent id the token speaks for */
  name: string;
  hash: string;
  createdAt: string;
  expiresAt?: string;
  revokedAt?: string;
  lastUsedAt?: string;
  /** made but never shown, nor used: it holds no name */
  halfMade?: boolean;
}

/** A token just made: `shown()` once it was handed over (printed, answered) makes it hold its name. */
export interface MadeToken {
  token: string;
  record: AgentTokenRecord;
  shown(): Promise<void>;
}

type Line =
  | { op: 'create'; id: string; name: string; hash: string; createdAt: string; expiresAt?: string; pending?: true }
  | { op: 'shown'; id: string; at: string }
  | { op: 'revoke'; id: string; at: string }
  | { op: 'used'; id: string; at: string };

/** An agent id a token may be bound to: a plain name every OS takes as a file name too. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Last use is written at most this often per token (the window shows the exact time while the bridge runs). */
const USED_EVERY_MS = 10 * 60_000;

/** `30d`, `12h`, `90m` or `never` → milliseconds (undefined for never). */
export function parseExpiry(raw: string): number | undefined {
  if (raw === 'never') return undefined;
  const match = /^(\d+)([mhd])$/.exec(raw.trim());
  const n = match ? Number(match[1]) : 0;
  if (!match || n < 1)
    throw new Invalid(`--expires must be a number of minutes, hours or days (90m, 12h, 30d) or "never", got "${raw}"`);
  return n * { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'm' | 'h' | 'd'];
}

export const DEFAULT_EXPIRY = '30d';

export class AgentTokens {
  private records = new Map<string, AgentTokenRecord>();
  private seen = '';
  private watcher?: FSWatcher;
  private readonly revokeListeners = new Set<(record: AgentTokenRecord) => void>();
  private readonly changeListeners = new Set<() => void>();
  private loaded = false;
  private readonly usedWritten = new Map<string, number>();
  private changing: Promise<void> = Promise.resolve();
  /** the last-use lines being written, in the background */
  private lastUses: Promise<void> = Promise.resolve();
  /** answers proofs for ids nobody holds, so a prober learns nothing about which ids exist */
  private readonly decoy = randomBytes(32).toString('base64url');

  constructor(
    private readonly file: string,
    private readonly now: () => number = Date.now,
  ) {
    this.reload();
  }

  /** Watches the file (the CLI writes it): revoked tokens reach the listeners at once. */
  watch(): void {
    if (this.watcher) return;
    privateDir(dirname(this.file));
    const name = basename(this.file);
    this.watcher = watch(dirname(this.file), (_event, changed) => {
      // off the main thread: the CLI's write reaches the listeners a moment later, never stalling a request
      if (!changed || changed === name) void this.refresh();
    });
    this.watcher.unref();
  }

  /** Stops watching the file; resolves once the last-use lines asked for are written (nothing writes after). */
  async close(): Promise<void> {
    this.watcher?.close();
    await this.lastUses;
  }

  /** Called with each token revoked from now on (here or by another process). */
  onRevoke(listener: (record: AgentTokenRecord) => void): () => void {
    this.revokeListeners.add(listener);
    return () => this.revokeListeners.delete(listener);
  }

  /** Called whenever the tokens changed (made, revoked, here or by another process). */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /**
   * Makes a token bound to agent id `name`: its line is on disk when this resolves (DiskError, 503, when it cannot
   * be), the token is then shown, and `shown()` makes it hold its name. A half-made token of that name (its
   * `shown` never came) is revoked first; a whole one refuses (Conflict). A token speaks for its agent id at once,
   * inbox and pushes included: a name that is already an agent the bridge knows (`known` says how) is refused
   * unless the caller means it (`takeOver`), so a new token never quietly reads a local agent's messages.
   */
  create(name: string, expiresInMs?: number, options: { known?: string; takeOver?: boolean } = {}): Promise<MadeToken> {
    return this.oneAtATime(() => this.make(name, expiresInMs, options));
  }

  private async make(
    name: string,
    expiresInMs: number | undefined,
    options: { known?: string; takeOver?: boolean },
  ): Promise<MadeToken> {
    await this.refresh();
    if (!NAME.test(name))
      throw new Invalid(
        `agent token name must be a plain agent id (letters, digits, ".", "_", "-"; at most 64, not starting with a dot), got "${name}"`,
        'name',
      );
    if (options.known && !options.takeOver)
      throw new Conflict(
        `"${name}" is an agent this bridge knows (${options.known}): a token named so would speak for it from now on and read its inbox, its private pushes included. Pick another name, or take it over on purpose: aiti-bridge agent-token create ${name} --take-over`,
        'name',
      );
    const held = this.boundRecords(name);
    if (held.length) {
      const record = held[0];
      const expired = record?.expiresAt && Date.parse(record.expiresAt) <= this.now();
      throw new Conflict(
        `agent "${name}" has a token already (${record?.id}, made ${record?.createdAt}${expired ? `, expired ${record?.expiresAt}` : ''}); revoke it first (aiti-bridge agent-token revoke ${name}) or pick another name`,
        'name',
      );
    }
    const at = new Date(this.now()).toISOString();
    const halfMade = [...this.records.values()].filter((r) => r.name === name && !r.revokedAt && r.halfMade);
    const { token, id, hash } = mintCredential('agent');
    const expiresAt = expiresInMs === undefined ? undefined : new Date(this.now() + expiresInMs).toISOString();
    await this.append(
      [
        ...halfMade.map((r): Line => ({ op: 'revoke', id: r.id, at })),
        { op: 'create', id, name, hash, createdAt: at, ...(expiresAt ? { expiresAt } : {}), pending: true },
      ],
      `could not make the agent token of "${name}"`,
    );
    await this.refresh();
    const record = this.records.get(id);
    if (!record) throw new Error(`agent token ${id} was written but does not read back from ${this.file}`);
    return {
      token,
      record,
      shown: async () => {
        await this.append(
          [{ op: 'shown', id, at: new Date(this.now()).toISOString() }],
          `the agent token of "${name}" was made, but its shown line could not be written (it holds no name until it is used)`,
        );
        await this.refresh();
      },
    };
  }

  /** Revokes the tokens of agent `nameOrId` (or the token with that id), on disk before it resolves; returns them. */
  revoke(nameOrId: string): Promise<AgentTokenRecord[]> {
    return this.oneAtATime(() => this.revokeNow(nameOrId));
  }

  private async revokeNow(nameOrId: string): Promise<AgentTokenRecord[]> {
    await this.refresh();
    const targets = [...this.records.values()].filter(
      (r) => !r.revokedAt && (r.name === nameOrId || r.id === nameOrId),
    );
    if (!targets.length) {
      const names = this.list().map((r) => r.name);
      throw new NotFound(
        `no agent token named "${nameOrId}"; ${names.length ? `tokens: ${names.join(', ')}` : 'there are none'}`,
        'name',
      );
    }
    const at = new Date(this.now()).toISOString();
    await this.append(
      targets.map((record): Line => ({ op: 'revoke', id: record.id, at })),
      `could not revoke the agent token of "${nameOrId}"`,
    );
    await this.refresh();
    return targets.map((r) => this.records.get(r.id) ?? r);
  }

  /** Tokens not revoked, newest first (expired and half-made ones included: the list says so). */
  list(): AgentTokenRecord[] {
    return [...this.records.values()].filter((r) => !r.revokedAt).sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
  }

  /**
   * The record a live token belongs to (not revoked, not expired), marking its use; undefined otherwise. A token
   * the CLI made a moment ago, before its change reached this process, is looked up in the file first — off the
   * main thread (a stat, and a read only when the file changed) — so its first request is not refused.
   */
  async verify(token: string): Promise<AgentTokenRecord | undefined> {
    const parsed = parseCredential(token);
    if (parsed?.kind !== 'agent') return undefined;
    if (!this.records.has(parsed.id)) await this.refresh();
    const record = this.records.get(parsed.id);
    if (!record || record.revokedAt || !matchesHash(token, record.hash)) return undefined;
    if (record.expiresAt && Date.parse(record.expiresAt) <= this.now()) return undefined;
    this.markUsed(record);
    return record;
  }

  /** Why `token` is refused, for the 401 (it names the agent only to the one who holds its token). */
  refusal(token: string): string {
    const parsed = parseCredential(token);
    const record = parsed ? this.records.get(parsed.id) : undefined;
    if (!record || !matchesHash(token, record.hash)) return 'unknown agent token';
    if (record.revokedAt) return `the agent token of "${record.name}" was revoked at ${record.revokedAt}`;
    return `the agent token of "${record.name}" expired at ${record.expiresAt}; make a new one (aiti-bridge agent-token revoke ${record.name}, then create)`;
  }

  /** The token proof of id `id` (credentials.ts), or a decoy's for an id nobody holds. */
  proof(id: string, nonce: string): string {
    const record = this.records.get(id);
    return credentialProof(record && !record.revokedAt ? record.hash : credentialHash(this.decoy), nonce, id);
  }

  /** Whether an agent id belongs to a token (then only that token, or the human, may speak for it). */
  bindsName(agentId: string): boolean {
    return this.boundRecords(agentId).length > 0;
  }

  /** The live tokens that hold a name: whole ones (shown or used), not revoked. */
  private boundRecords(name: string): AgentTokenRecord[] {
    return [...this.records.values()].filter((r) => r.name === name && !r.revokedAt && !r.halfMade);
  }

  private markUsed(record: AgentTokenRecord): void {
    const at = this.now();
    record.lastUsedAt = new Date(at).toISOString();
    // whoever holds a half-made token saw it: it is whole from now on
    delete record.halfMade;
    const written = this.usedWritten.get(record.id) ?? 0;
    if (at - written < USED_EVERY_MS) return;
    this.usedWritten.set(record.id, at);
    // last use is a convenience: a full disk must not refuse the agent
    const line = this.append([{ op: 'used', id: record.id, at: record.lastUsedAt }], 'last use').catch(() => undefined);
    this.lastUses = Promise.all([this.lastUses, line]).then(() => undefined);
  }

  /** Makes and revokes run one after another: two makes of one name never both find it free. */
  private oneAtATime<T>(step: () => Promise<T>): Promise<T> {
    const result = this.changing.then(step);
    this.changing = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private async append(lines: Line[], what: string): Promise<void> {
    // the CLI may run before any bridge made the data dir
    await mkdir(dirname(this.file), { recursive: true, mode: PRIVATE_DIR });
    await appendLine(this.file, lines.map((line) => JSON.stringify(line) + '\n').join(''), { what });
  }

  /**
   * Reads the file again when it changed since the last read (size and mtime): when the bridge starts and when the
   * file changes (the CLI writes it). Never on a request: verify reads memory, make and revoke `refresh`.
   */
  private reload(): void {
    let stamp = '';
    try {
      const stat = statSync(this.file);
      stamp = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
    } catch {
      stamp = 'none';
    }
    if (stamp === this.seen) return;
    this.seen = stamp;
    let text = '';
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      // no tokens made yet
    }
    this.parse(text);
  }

  /** The same, off the main thread: what a make or a revoke reads first (the CLI may have written meanwhile). */
  private async refresh(): Promise<void> {
    let stamp = '';
    let text = '';
    try {
      const stats = await stat(this.file);
      stamp = `${stats.size}:${stats.mtimeMs}:${stats.ino}`;
      if (stamp !== this.seen) text = await readFile(this.file, 'utf8');
    } catch {
      stamp = 'none';
    }
    if (stamp === this.seen) return;
    this.seen = stamp;
    this.parse(text);
  }

  private parse(text: string): void {
    const before = this.records;
    const records = new Map<string, AgentTokenRecord>();
    for (const raw of text.split('\n')) {
      if (!raw.trim()) continue;
      let line: Partial<Record<'op' | 'id' | 'name' | 'hash' | 'createdAt' | 'expiresAt' | 'at' | 'pending', unknown>>;
      try {
        line = JSON.parse(raw) as typeof line;
      } catch {
        continue; // a torn line (a crash mid-append; the next append ends it): that change never happened
      }
      if (typeof line.id !== 'string') continue;
      if (line.op === 'create' && typeof line.name === 'string' && typeof line.hash === 'string') {
        records.set(line.id, {
          id: line.id,
          name: line.name,
          hash: line.hash,
          createdAt: String(line.createdAt),
          ...(typeof line.expiresAt === 'string' ? { expiresAt: line.expiresAt } : {}),
          ...(line.pending === true ? { halfMade: true } : {}),
        });
      } else {
        const record = records.get(line.id);
        if (!record || typeof line.at !== 'string') continue;
        if (line.op === 'revoke') record.revokedAt = line.at;
        if (line.op === 'shown') delete record.halfMade;
        if (line.op === 'used') {
          record.lastUsedAt = line.at;
          delete record.halfMade;
        }
      }
    }
    for (const [id, record] of records) {
      const known = before.get(id);
      // the exact last use lives here while the bridge runs; the file has it to the write
      if (known?.lastUsedAt && (!record.lastUsedAt || known.lastUsedAt > record.lastUsedAt)) {
        record.lastUsedAt = known.lastUsedAt;
        delete record.halfMade;
      }
    }
    this.records = records;
    for (const [id, record] of records) {
      if (record.revokedAt && before.has(id) && !before.get(id)?.revokedAt)
        for (const listener of this.revokeListeners) listener(record);
    }
    const structural = (map: Map<string, AgentTokenRecord>) =>
      [...map.values()].map((r) => `${r.id}:${r.revokedAt ?? ''}:${r.halfMade ? 'half' : ''}`).join(',');
    if (this.loaded && structural(before) !== structural(records))
      for (const listener of this.changeListeners) listener();
    this.loaded = true;
  }
}
