import { randomBytes } from 'node:crypto';
import type {
  ImageRef,
  InboxCounts,
  InboxStatusAnswer,
  Json,
  Message,
  MessageKind,
  MessagesAnswer,
  MessageStatus,
} from '../protocol/index.js';
import { Invalid } from '../errors.js';
import type { MessageLines } from '../journal/lines.js';
import type { JournalBodies } from '../journal/replay.js';
import type { JournalHealth, JournalWriter } from '../journal/writer.js';
import { ASK, FROMS, KINDS, MessageTable, RowList, STATUSES, timeOrder, type MessageBody } from './message-table.js';

/** The inbox's side of the journal: it writes message lines, and hears how the disk is doing. */
export type MessageJournal = Pick<JournalWriter, 'append' | 'health' | 'onHealth' | 'close'>;

/** What a sender gives; the inbox adds id, agentId, time and status. */
export interface MessageDraft {
  /** a fixed id (an ask's record and answer take ids made from the ask id); a message with it already is kept as it is */
  id?: string;
  kind: MessageKind;
  from: Message['from'];
  text?: string;
  payload?: Json;
  /** what the message refers to, e.g. the ask id of a user_answer */
  ref?: string;
  /** images kept in the data dir (the journal holds the references only) */
  images?: ImageRef[];
}

export type InboxEvent =
  | { type: 'message'; message: Message }
  /** messages moved to another agent id (aiti_hello renamed it); the newest few, as they read now */
  | { type: 'renamed'; from: string; to: string; messages: Message[] }
  | { type: 'status'; id: string; agentId: string; status: MessageStatus; at: string };

interface AgentBox {
  /** the agent's rows in arrival order */
  rows: RowList;
  counts: InboxCounts;
  /** the last activity: a time as written, or (from replay) its ms */
  lastActivity?: string | number;
}

export const DEFAULT_PAGE = 50;
/** bodies the notice read back from the journal, kept so the next notice has them */
const PREVIEWS_KEPT = 64;
/** a rename tells the window about this many of the moved messages (the newest); a reload shows the rest */
const RENAME_SHOWN = 200;
const CONSUMED = STATUSES.indexOf('consumed');

/**
 * Every agent's messages, pending → delivered → consumed, backed by the journal. Each change is written to the
 * journal and on disk before the promise that reports it resolves; the window hears of it after that.
 * Messages live in a MessageTable (one row each); the public methods hand out plain Message copies.
 */
export class Inbox {
  private readonly table = new MessageTable();
  private readonly boxes = new Map<string, AgentBox>();
  /** every message's row in time order, for history across agents */
  private all = new RowList();
  private readonly listeners = new Set<(event: InboxEvent) => void>();
  /** rows whose status change is being written: not taken again meanwhile */
  private readonly changing = new Set<number>();
  /** where the bodies replay left on disk are read back, and the last few read */
  private bodies?: JournalBodies;
  /** bodies read back for the one-line notice (newestPending), the last few */
  private readonly previews = new Map<number, MessageBody>();
  /** the time of the newest message, read only when a replayed sync ask needs it */
  private newest?: number;

  constructor(
    private readonly journal: MessageJournal,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Rebuilds every inbox from the journal: `read` runs the journal's replay (journal/replay.ts) with the visitor
   * the inbox gives it for message lines, and returns where the bodies it left on disk are read back. Every message
   * comes back as it was: pending, handed out and not yet acknowledged (delivered, which the agent's next read
   * hands out again), or consumed. A replayed message's body stays on disk until it is read (journal/scan.ts).
   */
  replay(read: (lines: MessageLines) => JournalBodies): void {
    const table = this.table;
    /** status changes read before their message (an id string is made only for these) */
    const early = new Map<string, MessageStatus>();
    // Stryker disable next-line ArrayDeclaration: equivalent, an element that is no rename moves no agent's messages
    const renames: Array<{ from: string; to: string; at: string }> = [];
    /** `at` becomes the box's lastActivity: a line read whole keeps its text (it need not be in toISOString form) */
    const row = (
      status: MessageStatus,
      time: number,
      kind: number,
      from: number,
      agentId: string,
      at: string | number = time,
    ) => {
      const raised = early.size ? higher(status, early.get(table.ids.id(table.size))) : status;
      const added = table.add(time, STATUSES.indexOf(raised), kind, from, agentId);
      this.insert(added, agentId, at);
      return added;
    };
    // setStatus keeps a status that is already as high
    const change = (found: number, status: MessageStatus, at: string | number) => this.setStatus(found, status, at);
    this.bodies = read({
      head: (head, file) => {
        // a second line with a known id is skipped: the first one counts
        if (table.ids.addBytes(head.buf, head.idStart, head.idEnd, table.size) >= 0) return;
        // Stryker disable next-line StringLiteral: unreachable, the scan reads only the statuses STATUSES holds
        const added = row(STATUSES[head.status] ?? 'pending', head.time, head.kind, head.from, head.agentId);
        if (head.hasBody) {
          table.file[added] = file;
          table.start[added] = head.start;
          table.end[added] = head.end;
        }
      },
      message: (message) => {
        if (table.ids.add(message.id, table.size) >= 0) return;
        const added = row(
          message.status,
          Date.parse(message.at),
          KINDS.indexOf(message.kind),
          FROMS.indexOf(message.from),
          message.agentId,
          message.at,
        );
        table.bodies.set(added, bodyOf(message));
      },
      statusHead: (head) => {
        const found = table.ids.findBytes(head.buf, head.idStart, head.idEnd);
        // Stryker disable next-line StringLiteral: unreachable, the scan reads only the statuses STATUSES holds
        const status = STATUSES[head.status] ?? 'pending';
        if (found >= 0) change(found, status, head.time);
        else {
          const id = head.buf.toString('latin1', head.idStart, head.idEnd);
          early.set(id, higher(status, early.get(id)));
        }
      },
      statusChange: (id, status, at) => {
        const found = table.ids.find(id);
        if (found >= 0) change(found, status, at);
        else early.set(id, higher(status, early.get(id)));
      },
      renamed: (from, to, at) => renames.push({ from, to, at }),
    });
    // files are read agent by agent: put the cross-agent history back in time order (stable: rows are numbered in
    // reading order, so messages of one instant keep their writing order)
    const order = timeOrder(table.time, table.size);
    this.all = RowList.from(order);
    order.forEach((r, index) => (table.pos[r] = index));
    for (const rename of renames.sort((a, b) => Date.parse(a.at) - Date.parse(b.at)))
      this.move(rename.from, rename.to, rename.at);
  }

  /** When the message with this id was written (ms), or undefined when there is none. */
  timeOf(id: string): number | undefined {
    const found = this.table.ids.find(id);
    return found >= 0 ? (this.table.time[found] ?? 0) : undefined;
  }

  /** The time (ms) of the newest message: after replay, the last one the bridge wrote before it stopped. */
  lastWritten(): number {
    const table = this.table;
    return (this.newest ??= table.time.subarray(0, table.size).reduce((max, time) => Math.max(max, time), 0));
  }

  /** The message with this id, as the wire has it (History and aiti_inbox read the same). */
  async find(id: string): Promise<Message | undefined> {
    const row = this.table.ids.find(id);
    return row >= 0 ? (await this.read([row]))[0] : undefined;
  }

  /**
   * aiti_hello renamed an agent: its messages (history and unread alike) belong to the new name from now on, so
   * the old name leaves no trace. Journaled in the old name's journal first, then moved: the replay moves them
   * again, and a line the disk refused (the promise rejects) moves nothing, so what an agent reads now is what it
   * reads after a restart. Messages that come for `from` while the line is written are newer than `at` and stay.
   */
  async rename(from: string, to: string): Promise<void> {
    if (from === to || !this.boxes.has(from)) return;
    const at = this.now().toISOString();
    await this.journal.append(from, { type: 'renamed', from, to, at });
    const moved = this.move(from, to, at);
    this.emit({ type: 'renamed', from, to, messages: await this.read(moved.slice(-RENAME_SHOWN)) });
  }

  /** Moves the messages of `from` written up to `at` into `to`'s box, keeping each box in time order. */
  private move(from: string, to: string, at: string): number[] {
    const source = this.boxes.get(from);
    if (!source || from === to) return [];
    const table = this.table;
    const until = Date.parse(at);
    const rows = source.rows.slice();
    const moving = rows.filter((r) => (table.time[r] ?? 0) <= until);
    if (!moving.length) return [];
    const staying = rows.filter((r) => !((table.time[r] ?? 0) <= until));
    let target = this.boxes.get(to);
    if (!target) {
      target = { rows: new RowList(), counts: { pending: 0, delivered: 0, consumed: 0 } };
      this.boxes.set(to, target);
    }
    const toNumber = table.agentNumber(to);
    for (const r of moving) {
      if (table.kind[r] !== ASK) {
        const status = table.statusOf(r);
        source.counts[status]--;
        target.counts[status]++;
      }
      table.agent[r] = toNumber;
      // an ask's record names its agent in the payload
      const body = table.kind[r] === ASK ? table.bodies.get(r) : undefined;
      if (body && isObject(body.payload)) body.payload.agentId = to;
    }
    const merged = [...target.rows.slice(), ...moving];
    merged.sort((a, b) => (table.time[a] ?? 0) - (table.time[b] ?? 0));
    target.rows = RowList.of(merged);
    source.rows = RowList.of(staying);
    const last = merged[merged.length - 1];
    if (last !== undefined) target.lastActivity = table.bodies.get(last)?.at ?? table.time[last];
    if (!staying.length) this.boxes.delete(from);
    for (const box of [source, target]) box.rows.slice().forEach((r, index) => (table.agentPos[r] = index));
    return moving;
  }

  onEvent(listener: (event: InboxEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds a pending message for the agent (a push, an async answer, a page event); resolves once it is durable. */
  async add(agentId: string, draft: MessageDraft, status: MessageStatus = 'pending'): Promise<Message> {
    const kept = draft.id === undefined ? -1 : this.table.ids.find(draft.id);
    if (kept >= 0) return (await this.read([kept]))[0] ?? this.out(kept);
    const body: MessageBody = {
      ...(draft.text !== undefined ? { text: draft.text } : {}),
      ...(draft.payload !== undefined ? { payload: draft.payload } : {}),
      ...(draft.ref !== undefined ? { ref: draft.ref } : {}),
      ...(draft.images?.length ? { images: draft.images } : {}),
      at: this.now().toISOString(),
    };
    // this key order is the line form replay reads by its head (journal-scan.ts)
    const message: Message = {
      id: draft.id ?? newMessageId(),
      kind: draft.kind,
      from: draft.from,
      agentId,
      ...body,
      status,
    };
    await this.journal.append(agentId, { type: 'message', message });
    const time = Date.parse(body.at);
    // the same fixed id written twice at once: the first one counts, as in replay
    const twin = this.table.ids.add(message.id, this.table.size);
    if (twin >= 0) return (await this.read([twin]))[0] ?? this.out(twin);
    const row = this.table.add(
      time,
      STATUSES.indexOf(status),
      KINDS.indexOf(message.kind),
      FROMS.indexOf(message.from),
      agentId,
    );
    this.table.bodies.set(row, body);
    this.insert(row, agentId, body.at);
    this.emit({ type: 'message', message: { ...message } });
    // the journal made its line of it already and keeps no reference: the caller may have this object
    return message;
  }

  /**
   * A page of the agent's messages not yet acknowledged, oldest first: the ones handed out before and never acked
   * (delivered) come back, with their ids, in their place among the pending ones — a read whose answer never
   * reached the agent loses nothing. `after` (a message id) starts the page after that message; `accept` says how
   * many the answer holds (it sees each message whole, in order, and the first false ends the page). Pending ones
   * become delivered (durably) before they are returned; reading never consumes. `left` counts the messages not
   * yet acknowledged after the page.
   */
  async take(
    agentId: string,
    options: { after?: string; limit?: number; accept?: (message: Message, index: number) => boolean } = {},
  ): Promise<{ messages: Message[]; left: number }> {
    const box = this.boxes.get(agentId);
    const table = this.table;
    const limit = options.limit ?? DEFAULT_PAGE;
    let from = 0;
    if (options.after !== undefined) {
      const row = table.ids.find(options.after);
      if (row < 0 || table.agentOf(row) !== agentId)
        throw new Invalid(
          `after "${options.after}" is not a message of agent "${agentId}"; pass the id of the last message you read (or leave it out to start at the oldest)`,
          'after',
        );
      from = (table.agentPos[row] ?? 0) + 1;
    }
    if (!box) return { messages: [], left: 0 };
    const waiting = (r: number) => table.status[r] !== CONSUMED && table.kind[r] !== ASK && !this.changing.has(r);
    const candidates: number[] = [];
    let end = from;
    for (; end < box.rows.length && candidates.length < limit; end++) {
      const r = box.rows.at(end);
      if (waiting(r)) candidates.push(r);
    }
    const read = await this.read(candidates);
    const accept = options.accept ?? (() => true);
    let taken = 0;
    while (taken < read.length && accept(read[taken] as Message, taken)) taken++;
    const rows = candidates.slice(0, taken);
    await this.change(
      rows.filter((r) => table.status[r] === 0),
      'delivered',
    );
    let left = candidates.length - taken;
    for (let i = end; i < box.rows.length; i++) if (waiting(box.rows.at(i))) left++;
    return { messages: read.slice(0, taken).map((m, i) => ({ ...m, status: table.statusOf(rows[i] ?? -1) })), left };
  }

  /** Marks messages as shown to the agent by another channel (channel notification, sampling). */
  async markDelivered(agentId: string, ids: string[]): Promise<void> {
    const found = this.rowsOf(agentId, ids).filter((r) => this.table.status[r] === 0 && !this.changing.has(r));
    await this.change(found, 'delivered');
  }

  /** pending/delivered → consumed; ids that are not this agent's messages are reported, not fatal. */
  async ack(agentId: string, ids: string[]): Promise<{ acked: string[]; unknown: string[] }> {
    const acked: number[] = [];
    const unknown: string[] = [];
    for (const id of new Set(ids)) {
      const r = this.table.ids.find(id);
      if (r < 0 || this.table.agentOf(r) !== agentId) unknown.push(id);
      else acked.push(r);
    }
    await this.change(
      acked.filter((r) => this.table.status[r] !== CONSUMED),
      'consumed',
    );
    return { acked: acked.map((r) => this.table.ids.id(r)), unknown };
  }

  counts(agentId: string): InboxCounts {
    return { ...(this.boxes.get(agentId)?.counts ?? { pending: 0, delivered: 0, consumed: 0 }) };
  }

  /** messages the agent has not been shown yet */
  unread(agentId: string): number {
    return this.boxes.get(agentId)?.counts.pending ?? 0;
  }

  /**
   * The newest pending message, for the one-line notice (synchronous, as the notice is). A replayed message's body
   * is on disk: it is read in the background and this answer comes without it (the next notice has it).
   */
  newestPending(agentId: string): Message | undefined {
    const rows = this.boxes.get(agentId)?.rows;
    if (!rows) return undefined;
    for (let i = rows.length - 1; i >= 0; i--) {
      const r = rows.at(i);
      if (this.table.status[r] !== 0) continue;
      const preview = this.previews.get(r);
      if (preview || this.table.bodies.has(r) || (this.table.file[r] ?? -1) < 0) return this.out(r, preview);
      void this.read([r]).then(([message]) => {
        if (!message) return;
        if (this.previews.size >= PREVIEWS_KEPT) this.previews.delete(this.previews.keys().next().value ?? -1);
        this.previews.set(r, bodyOf(message));
      });
      return this.out(r, { at: isoOf(this.table.time[r] ?? 0) });
    }
    return undefined;
  }

  agentIds(): string[] {
    return [...this.boxes.keys()];
  }

  /** Counts by status of every agent that has an inbox. */
  countsByAgent(): Record<string, InboxCounts> {
    return Object.fromEntries([...this.boxes].map(([id, box]) => [id, { ...box.counts }]));
  }

  status(): InboxStatusAnswer {
    return {
      agents: [...this.boxes].map(([agentId, box]) => ({
        agentId,
        counts: { ...box.counts },
        ...(box.lastActivity !== undefined ? { lastActivity: isoOf(box.lastActivity) } : {}),
      })),
    };
  }

  /**
   * History, newest first. `before` is a message id (exclusive) or an ISO time; `nextBefore` continues with the next
   * older page and is absent at the end.
   */
  async history(query: { agentId?: string; before?: string; limit?: number }): Promise<MessagesAnswer> {
    const table = this.table;
    const list = query.agentId ? (this.boxes.get(query.agentId)?.rows ?? new RowList()) : this.all;
    const limit = query.limit ?? DEFAULT_PAGE;
    let end = list.length;
    if (query.before) {
      const r = this.table.ids.find(query.before);
      if (r >= 0 && (!query.agentId || table.agentOf(r) === query.agentId)) {
        end = query.agentId ? (table.agentPos[r] ?? 0) : (table.pos[r] ?? 0);
      } else {
        const time = Date.parse(query.before);
        if (!Number.isFinite(time)) {
          throw new Invalid(
            `before "${query.before}" is neither a message id${query.agentId ? ` of agent "${query.agentId}"` : ''} nor an ISO time; pass the nextBefore of the previous page`,
            'before',
          );
        }
        while (end > 0 && (table.time[list.at(end - 1)] ?? NaN) >= time) end--;
      }
    }
    const start = Math.max(0, end - limit);
    const messages = await this.read(list.slice(start, end).reverse());
    const last = messages[messages.length - 1];
    return { messages, ...(start > 0 && last ? { nextBefore: last.id } : {}) };
  }

  /** Whether the journal's last writes reached the disk (bridge_status, the window). */
  storage(): JournalHealth {
    return this.journal.health();
  }

  onStorage(listener: (health: JournalHealth) => void): () => void {
    return this.journal.onHealth(listener);
  }

  /** Closes the journal's files once what they were given is on disk (after the server stopped taking requests). */
  close(): Promise<void> {
    return this.journal.close();
  }

  private rowsOf(agentId: string, ids: string[]): number[] {
    const rows: number[] = [];
    for (const id of ids) {
      const r = this.table.ids.find(id);
      if (r >= 0 && this.table.agentOf(r) === agentId) rows.push(r);
    }
    return rows;
  }

  private insert(row: number, agentId: string, at: string | number): void {
    let box = this.boxes.get(agentId);
    if (!box) {
      box = { rows: new RowList(), counts: { pending: 0, delivered: 0, consumed: 0 } };
      this.boxes.set(agentId, box);
    }
    const table = this.table;
    table.pos[row] = this.all.length;
    table.agentPos[row] = box.rows.length;
    this.all.push(row);
    box.rows.push(row);
    // an ask's record is history only: it is no message to the agent, so it counts in no inbox status
    if (table.kind[row] !== ASK) box.counts[table.statusOf(row)]++;
    box.lastActivity = at;
  }

  /** Raises a row's status (never lowers it: an ack that lands before a read's `delivered` stays consumed). */
  private setStatus(row: number, status: MessageStatus, at: string | number): void {
    const table = this.table;
    const box = this.boxes.get(table.agentOf(row));
    if (!box || table.kind[row] === ASK || STATUSES.indexOf(status) <= (table.status[row] ?? 0)) return;
    box.counts[table.statusOf(row)]--;
    box.counts[status]++;
    table.status[row] = STATUSES.indexOf(status);
    box.lastActivity = at;
  }

  /**
   * Journals the status changes, then makes them in memory and reports them: memory never runs ahead of the
   * disk, so a write that fails leaves the messages as they were (unread stays unread). The rows are held
   * meanwhile, so two readers never take the same message. Throws the journal's error (Unavailable) when any
   * line could not be written; the others are made.
   */
  private async change(rows: number[], status: MessageStatus): Promise<void> {
    if (!rows.length) return;
    const table = this.table;
    const at = this.now().toISOString();
    for (const r of rows) this.changing.add(r);
    let written: PromiseSettledResult<void>[];
    try {
      written = await Promise.allSettled(
        rows.map((r) =>
          this.journal.append(table.agentOf(r), { type: 'status_change', id: table.ids.id(r), status, at }),
        ),
      );
    } finally {
      for (const r of rows) this.changing.delete(r);
    }
    let failure: unknown;
    rows.forEach((r, i) => {
      const result = written[i];
      if (result?.status === 'rejected') {
        failure ??= result.reason;
        return;
      }
      this.setStatus(r, status, at);
      this.emit({ type: 'status', id: table.ids.id(r), agentId: table.agentOf(r), status, at });
    });
    if (failure !== undefined) throw failure;
  }

  /** The messages of these rows as the wire has them; replayed bodies are read back from their journal lines. */
  private async read(rows: number[]): Promise<Message[]> {
    const table = this.table;
    const loaded = new Map<number, MessageBody>();
    await Promise.all(
      rows.map(async (row) => {
        const file = table.file[row] ?? -1;
        if (table.bodies.has(row) || file < 0 || !this.bodies) return;
        const id = table.ids.id(row);
        const read = await this.bodies.readMessage(id, file, table.start[row] ?? 0, table.end[row] ?? 0);
        loaded.set(
          row,
          typeof read === 'string'
            ? {
                text: `(this message could not be read back from the journal: ${read})`,
                at: isoOf(table.time[row] ?? 0),
              }
            : bodyOf(read),
        );
      }),
    );
    return rows.map((row) => this.out(row, loaded.get(row)));
  }

  /** The message of a row as the wire has it, with its body from memory or as read back (`read`). */
  private out(row: number, read?: MessageBody): Message {
    const table = this.table;
    const id = table.ids.id(row);
    const agentId = table.agentOf(row);
    const kind = KINDS[table.kind[row] ?? 0] ?? 'user_message';
    let body: MessageBody | undefined = table.bodies.get(row) ?? read;
    // a rename moved an ask's record: its payload names the new agent, as move() does for one in memory
    if (body && !table.bodies.has(row) && kind === 'ask' && isObject(body.payload) && body.payload.agentId !== agentId)
      body = { ...body, payload: { ...body.payload, agentId } };
    return {
      id,
      kind,
      from: FROMS[table.from[row] ?? 0] ?? 'window',
      agentId,
      ...(body?.text !== undefined ? { text: body.text } : {}),
      ...(body?.payload !== undefined ? { payload: body.payload } : {}),
      ...(body?.ref !== undefined ? { ref: body.ref } : {}),
      ...(body?.images !== undefined ? { images: body.images } : {}),
      at: body?.at ?? isoOf(table.time[row] ?? 0),
      status: table.statusOf(row),
    };
  }

  private emit(event: InboxEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

/** A time as written, or the ms replay kept of one written by toISOString (which gives back the same text). */
function isoOf(at: string | number): string {
  return typeof at === 'string' ? at : new Date(at).toISOString();
}

function bodyOf(message: Message): MessageBody {
  const { text, payload, ref, images, at } = message;
  return {
    ...(text !== undefined ? { text } : {}),
    ...(payload !== undefined ? { payload } : {}),
    ...(ref !== undefined ? { ref } : {}),
    ...(images !== undefined ? { images } : {}),
    at,
  };
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function higher(a: MessageStatus, b: MessageStatus | undefined): MessageStatus {
  return b !== undefined && STATUSES.indexOf(b) > STATUSES.indexOf(a) ? b : a;
}

/** Short, unique, sortable by creation time: `m` + base36 time + random. */
function newMessageId(): string {
  return `m${Date.now().toString(36)}${randomHex()}`;
}

/** 10 random hex digits, from a pool: randomBytes(5) for each message cost a push some 15 µs of its ~170. */
let pool = Buffer.alloc(0);
let poolAt = 0;
function randomHex(): string {
  if (poolAt + 5 > pool.length) {
    pool = randomBytes(5 * 256);
    poolAt = 0;
  }
  poolAt += 5;
  return pool.toString('hex', poolAt - 5, poolAt);
}
