import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ClientCapabilities, Implementation } from '@modelcontextprotocol/server';
import type { AgentTransport } from '../agents/registry.js';
import { appendLine, replaceFile } from '../private-files.js';

/** What a session was started with, enough to start it again after a restart. */
export interface StoredSession {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  transport: AgentTransport;
  /** the agent id it speaks for, once aiti_hello chose one */
  agentId?: string;
  /** the agent token's name it was opened with (the remote listener): only that token may use it again */
  boundAgent?: string;
  /** when it was last written, ISO */
  at: string;
}

/** a session nobody came back to within this long is not restored */
const KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * The Streamable HTTP sessions of this bridge, in `<appDir>/mcp-sessions.jsonl` (0600): one line when a session
 * starts, one when aiti_hello binds it to an agent id, one when it ends. A client whose bridge restarted (a crash
 * or a restart) keeps its session id; the bridge finds the session here and starts it again, so the client's next
 * request, and the resume of a stream that broke, are answered instead of refused with 404. Only a hash of each
 * session id is kept: the file does not hand anyone a session. A session that ends while the bridge runs (DELETE,
 * the GET stream closed, idle) is gone for good; sessions open when the bridge stops are kept for its next start.
 */
export class SessionStore {
  private readonly sessions = new Map<string, StoredSession>();
  private stopping = false;
  /** the lines being written, one after the other */
  private written: Promise<void> = Promise.resolve();

  constructor(private readonly file: string) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return; // no session yet
    }
    const lines = text.split('\n');
    for (const line of lines) this.read(line);
    const now = Date.now();
    for (const [hash, session] of this.sessions) if (now - Date.parse(session.at) > KEPT_MS) this.sessions.delete(hash);
    if (lines.length > 2 * this.sessions.size + 100) this.compact();
  }

  private read(line: string): void {
    if (!line.trim()) return;
    let entry: { hash?: unknown; ended?: unknown; session?: StoredSession; agentId?: unknown; at?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      return; // a torn last line: that session is not restored, nothing else is lost
    }
    if (typeof entry.hash !== 'string') return;
    if (entry.ended === true) this.sessions.delete(entry.hash);
    else if (entry.session) this.sessions.set(entry.hash, entry.session);
    else if (typeof entry.agentId === 'string') {
      const known = this.sessions.get(entry.hash);
      if (known) known.agentId = entry.agentId;
    }
  }

  /** The session this id had before the bridge restarted, if it is kept. */
  find(sessionId: string): StoredSession | undefined {
    return this.sessions.get(hashOf(sessionId));
  }

  started(sessionId: string, session: Omit<StoredSession, 'at'>): void {
    const stored = { ...session, at: new Date().toISOString() };
    this.sessions.set(hashOf(sessionId), stored);
    this.append({ hash: hashOf(sessionId), session: stored });
  }

  bound(sessionId: string, agentId: string): void {
    const known = this.sessions.get(hashOf(sessionId));
    if (!known || known.agentId === agentId) return;
    known.agentId = agentId;
    this.append({ hash: hashOf(sessionId), agentId, at: new Date().toISOString() });
  }

  ended(sessionId: string): void {
    if (this.stopping || !this.sessions.delete(hashOf(sessionId))) return;
    this.append({ hash: hashOf(sessionId), ended: true });
  }

  /** The bridge is stopping: the sessions still open now are kept for its next start. */
  stop(): void {
    this.stopping = true;
  }

  /**
   * Resolves once every line asked for so far is written: the bridge's close waits for it, so nothing of this bridge
   * writes in the data dir after close, when the next bridge may own it.
   */
  async close(): Promise<void> {
    this.stop();
    await this.written;
  }

  /**
   * Written in the background, in order, off the main thread, and not fsynced: a session a crash forgets is one its
   * client opens again, and no MCP request waits for it. A session that cannot be kept is only one a restart cannot
   * restore.
   */
  private append(entry: object): void {
    this.written = this.written
      .then(() => appendLine(this.file, JSON.stringify(entry) + '\n', { sync: false }))
      .catch(() => undefined);
  }

  private compact(): void {
    const text = [...this.sessions].map(([hash, session]) => JSON.stringify({ hash, session }) + '\n').join('');
    // the long file reads the same if it fails; compacted at a later start
    this.written = replaceFile(this.file, text).catch(() => undefined);
  }
}

function hashOf(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}
