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
import type { Journal } from './journal.js';

/** What a sender gives; the inbox adds id, agentId, time and status. */
export interface MessageDraft {
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
  list: Message[];
  counts: InboxCounts;
  lastActivity?: string;
}

const RANK: Record<MessageStatus, number> = { pending: 0, delivered: 1, consumed: 2 };
export const DEFAULT_PAGE = 50;
/** a rename tells the window about this many of the moved messages (the newest); a reload shows the rest */
const RENAME_SHOWN = 200;

/**
 * Every agent's messages, pending → delivered → consumed, backed by the journal. Each change is written to the
 * journal and on disk before the promise that reports it resolves; the window hears of it after that.
 */
export class Inbox {
  private readonly boxes = new Map<string, AgentBox>();
  /** every message in arrival order, for history across agents */
  private readonly all: Message[] = [];
  private readonly byId = new Map<string, { message: Message; index: number; agentIndex: number }>();
  private readonly listeners = new Set<(event: InboxEvent) => void>();

  constructor(
    private readonly journal: Journal,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Rebuilds every inbox from the journal; pending and delivered come back as pending (nobody has read them now). */
  replay(): void {
    const early = new Map<string, MessageStatus>();
    const renames: Array<{ from: string; to: string; at: string }> = [];
    for (const { line } of this.journal.replay()) {
      if (line.type === 'renamed') renames.push(line);
      else if (line.type === 'message') {
        if (this.byId.has(line.message.id)) continue;
        const status = higher(line.message.status, early.get(line.message.id));
        this.insert({ ...line.message, status: status === 'consumed' ? 'consumed' : 'pending' });
      } else if (line.type === 'status_change') {
        const entry = this.byId.get(line.id);
        if (!entry) early.set(line.id, higher(line.status, early.get(line.id)));
        else if (line.status === 'consumed' && entry.message.status !== 'consumed') {
          this.setStatus(entry.message, 'consumed', line.at);
        }
      }
    }
    // files are read agent by agent: put the cross-agent history back in time order (stable within an agent)
    // each time is parsed once, not in every comparison (a million messages take some 20 million comparisons)
    const timed = this.all.map((message) => ({ message, time: Date.parse(message.at) }));
    timed.sort((a, b) => a.time - b.time);
    timed.forEach(({ message }, index) => {
      this.all[index] = message;
      const entry = this.byId.get(message.id);
      if (entry) entry.index = index;
    });
    for (const rename of renames.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)))
      this.move(rename.from, rename.to, rename.at);
  }

  /**
   * aiti_hello renamed an agent: its messages (history and unread alike) belong to the new name from now on, so
   * the old name leaves no trace. Journaled in the old name's journal; the replay moves them again.
   */
  async rename(from: string, to: string): Promise<void> {
    if (from === to || !this.boxes.has(from)) return;
    const at = this.now().toISOString();
    const moved = this.move(from, to, at);
    this.emit({ type: 'renamed', from, to, messages: moved.slice(-RENAME_SHOWN).map((m) => ({ ...m })) });
    await this.journal.append(from, { type: 'renamed', from, to, at });
  }

  /** Moves the messages of `from` written up to `at` into `to`'s box, keeping each box in time order. */
  private move(from: string, to: string, at: string): Message[] {
    const source = this.boxes.get(from);
    if (!source || from === to) return [];
    const moving = source.list.filter((m) => m.at <= at);
    if (!moving.length) return [];
    const staying = source.list.filter((m) => m.at > at);
    let target = this.boxes.get(to);
    if (!target) {
      target = { list: [], counts: { pending: 0, delivered: 0, consumed: 0 } };
      this.boxes.set(to, target);
    }
    for (const message of moving) {
      if (message.kind !== 'ask') {
        source.counts[message.status]--;
        target.counts[message.status]++;
      }
      message.agentId = to;
      if (
        message.kind === 'ask' &&
        message.payload &&
        typeof message.payload === 'object' &&
        !Array.isArray(message.payload)
      )
        (message.payload as Record<string, unknown>).agentId = to;
    }
    target.list = [...target.list, ...moving].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    source.list = staying;
    const last = target.list[target.list.length - 1];
    if (last) target.lastActivity = last.at;
    if (!staying.length) this.boxes.delete(from);
    for (const box of [source, target])
      box.list.forEach((message, agentIndex) => {
        const entry = this.byId.get(message.id);
        if (entry) entry.agentIndex = agentIndex;
      });
    return moving;
  }

  onEvent(listener: (event: InboxEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds a pending message for the agent; resolves once it is durable. The asks engineer's async answers use this. */
  async add(agentId: string, draft: MessageDraft, status: MessageStatus = 'pending'): Promise<Message> {
    const message: Message = {
      id: newMessageId(),
      kind: draft.kind,
      from: draft.from,
      agentId,
      ...(draft.text !== undefined ? { text: draft.text } : {}),
      ...(draft.payload !== undefined ? { payload: draft.payload } : {}),
      ...(draft.ref !== undefined ? { ref: draft.ref } : {}),
      ...(draft.images?.length ? { images: draft.images } : {}),
      at: this.now().toISOString(),
      status,
    };
    await this.journal.append(agentId, { type: 'message', message });
    this.insert(message);
    this.emit({ type: 'message', message: { ...message } });
    return { ...message };
  }

  /** The agent's pending messages, oldest first, which become delivered (durably) before they are returned. */
  async take(agentId: string, limit = DEFAULT_PAGE): Promise<Message[]> {
    const box = this.boxes.get(agentId);
    if (!box) return [];
    const taken = box.list.filter((m) => m.status === 'pending').slice(0, limit);
    await this.change(taken, 'delivered');
    return taken.map((m) => ({ ...m }));
  }

  /** Marks messages as shown to the agent by another channel (channel notification, sampling). */
  async markDelivered(agentId: string, ids: string[]): Promise<void> {
    const found = ids
      .map((id) => this.byId.get(id)?.message)
      .filter((m): m is Message => !!m && m.agentId === agentId && m.status === 'pending');
    await this.change(found, 'delivered');
  }

  /** pending/delivered → consumed; ids that are not this agent's messages are reported, not fatal. */
  async ack(agentId: string, ids: string[]): Promise<{ acked: string[]; unknown: string[] }> {
    const acked: Message[] = [];
    const unknown: string[] = [];
    for (const id of new Set(ids)) {
      const message = this.byId.get(id)?.message;
      if (!message || message.agentId !== agentId) unknown.push(id);
      else acked.push(message);
    }
    await this.change(
      acked.filter((m) => m.status !== 'consumed'),
      'consumed',
    );
    return { acked: acked.map((m) => m.id), unknown };
  }

  counts(agentId: string): InboxCounts {
    return { ...(this.boxes.get(agentId)?.counts ?? { pending: 0, delivered: 0, consumed: 0 }) };
  }

  /** messages the agent has not been shown yet */
  unread(agentId: string): number {
    return this.boxes.get(agentId)?.counts.pending ?? 0;
  }

  /** the newest pending message, for the one-line notice */
  newestPending(agentId: string): Message | undefined {
    const list = this.boxes.get(agentId)?.list ?? [];
    for (let i = list.length - 1; i >= 0; i--) if (list[i]?.status === 'pending') return list[i];
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
        ...(box.lastActivity ? { lastActivity: box.lastActivity } : {}),
      })),
    };
  }

  /**
   * History, newest first. `before` is a message id (exclusive) or an ISO time; `nextBefore` continues with the next
   * older page and is absent at the end.
   */
  history(query: { agentId?: string; before?: string; limit?: number }): MessagesAnswer {
    const list = query.agentId ? (this.boxes.get(query.agentId)?.list ?? []) : this.all;
    const limit = query.limit ?? DEFAULT_PAGE;
    let end = list.length;
    if (query.before) {
      const entry = this.byId.get(query.before);
      if (entry && (!query.agentId || entry.message.agentId === query.agentId)) {
        end = query.agentId ? entry.agentIndex : entry.index;
      } else {
        const time = Date.parse(query.before);
        if (!Number.isFinite(time)) {
          throw new Invalid(
            `before "${query.before}" is neither a message id${query.agentId ? ` of agent "${query.agentId}"` : ''} nor an ISO time; pass the nextBefore of the previous page`,
            'before',
          );
        }
        while (end > 0 && Date.parse(list[end - 1]?.at ?? '') >= time) end--;
      }
    }
    const start = Math.max(0, end - limit);
    const messages = list
      .slice(start, end)
      .reverse()
      .map((m) => ({ ...m }));
    const last = messages[messages.length - 1];
    return { messages, ...(start > 0 && last ? { nextBefore: last.id } : {}) };
  }

  /** Closes the journal's files (after the server stopped taking requests). */
  close(): void {
    this.journal.close();
  }

  private insert(message: Message): void {
    let box = this.boxes.get(message.agentId);
    if (!box) {
      box = { list: [], counts: { pending: 0, delivered: 0, consumed: 0 } };
      this.boxes.set(message.agentId, box);
    }
    this.byId.set(message.id, { message, index: this.all.length, agentIndex: box.list.length });
    this.all.push(message);
    box.list.push(message);
    // an ask's record is history only: it is no message to the agent, so it counts in no inbox status
    if (message.kind !== 'ask') box.counts[message.status]++;
    box.lastActivity = message.at;
  }

  private setStatus(message: Message, status: MessageStatus, at: string): void {
    const box = this.boxes.get(message.agentId);
    if (!box || message.kind === 'ask') return;
    box.counts[message.status]--;
    box.counts[status]++;
    message.status = status;
    box.lastActivity = at;
  }

  /** Changes status in memory at once (two readers never take the same message), then journals and reports it. */
  private async change(messages: Message[], status: MessageStatus): Promise<void> {
    if (!messages.length) return;
    const at = this.now().toISOString();
    for (const message of messages) this.setStatus(message, status, at);
    await Promise.all(
      messages.map((m) => this.journal.append(m.agentId, { type: 'status_change', id: m.id, status, at })),
    );
    for (const m of messages) this.emit({ type: 'status', id: m.id, agentId: m.agentId, status, at });
  }

  private emit(event: InboxEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

function higher(a: MessageStatus, b: MessageStatus | undefined): MessageStatus {
  return b !== undefined && RANK[b] > RANK[a] ? b : a;
}

/** Short, unique, sortable by creation time: `m` + base36 time + random. */
function newMessageId(): string {
  return `m${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;
}
