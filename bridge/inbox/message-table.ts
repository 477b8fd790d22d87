import type { Message, MessageStatus } from '../protocol/index.js';
import { FROMS, KINDS, STATUSES } from '../journal/scan.js';
import { grown } from './grown.js';
import { IdIndex } from './id-index.js';

// a row keeps kind, from and status as their index in the wire schemas' lists (journal/scan.ts reads lines so)
export { FROMS, KINDS, STATUSES };
export const ASK = KINDS.indexOf('ask');

/** What a row keeps of a message in memory: the rest (id, kind, from, agent, status) is in its columns. */
export type MessageBody = Pick<Message, 'text' | 'payload' | 'ref' | 'images' | 'at'>;

/**
 * Every message the inbox knows, one row each, kept in columns: a million replayed messages make a million ids and
 * some typed-array cells, not a million objects (the garbage collector alone would eat the 2 s start budget).
 * A replayed message's body (text, payload, ref, images) stays in its journal line (`file`, `start`..`end`) until
 * it is read; a message written in this run, or replayed through the schema, keeps its body in `bodies`.
 */
export class MessageTable {
  size = 0;
  readonly ids = new IdIndex();
  time = new Float64Array(1024);
  status = new Uint8Array(1024);
  kind = new Uint8Array(1024);
  from = new Uint8Array(1024);
  agent = new Uint32Array(1024);
  /** journal file index (Journal.readMessage) of the line holding the body, -1 when there is none on disk to read */
  file = new Int32Array(1024);
  start = new Float64Array(1024);
  end = new Float64Array(1024);
  /** position in the cross-agent history and in the agent's own list */
  pos = new Int32Array(1024);
  agentPos = new Int32Array(1024);
  readonly bodies = new Map<number, MessageBody>();
  private readonly agents: string[] = [];
  private readonly agentNumbers = new Map<string, number>();

  /** A new row, numbered `size` (its id was given to `ids` under that number first); returns its number. */
  add(time: number, status: number, kind: number, from: number, agentId: string): number {
    if (this.size === this.time.length) this.grow();
    const row = this.size++;
    this.time[row] = time;
    this.status[row] = status;
    this.kind[row] = kind;
    this.from[row] = from;
    this.agent[row] = this.agentNumber(agentId);
    this.file[row] = -1;
    return row;
  }

  agentNumber(agentId: string): number {
    let n = this.agentNumbers.get(agentId);
    if (n === undefined) {
      n = this.agents.push(agentId) - 1;
      this.agentNumbers.set(agentId, n);
    }
    return n;
  }

  agentOf(row: number): string {
    return this.agents[this.agent[row] ?? -1] ?? '';
  }

  statusOf(row: number): MessageStatus {
    return STATUSES[this.status[row] ?? 0] ?? 'pending';
  }

  private grow(): void {
    const size = this.time.length * 2;
    this.time = grown(this.time, size);
    this.status = grown(this.status, size);
    this.kind = grown(this.kind, size);
    this.from = grown(this.from, size);
    this.agent = grown(this.agent, size);
    this.file = grown(this.file, size);
    this.start = grown(this.start, size);
    this.end = grown(this.end, size);
    this.pos = grown(this.pos, size);
    this.agentPos = grown(this.agentPos, size);
  }
}

/** A growable list of row numbers. */
export class RowList {
  length = 0;
  items = new Int32Array(16);

  push(row: number): void {
    if (this.length === this.items.length) this.items = grown(this.items, this.items.length * 2);
    this.items[this.length++] = row;
  }

  at(index: number): number {
    return this.items[index] ?? -1;
  }

  /** the rows from..to (exclusive) as a plain array */
  slice(from = 0, to = this.length): number[] {
    return Array.from(this.items.subarray(from, to));
  }

  /** a list over these rows (kept, not copied) */
  static from(items: Int32Array<ArrayBuffer>): RowList {
    const list = new RowList();
    list.items = items.length ? items : new Int32Array(1);
    list.length = items.length;
    return list;
  }

  static of(rows: number[]): RowList {
    const list = new RowList();
    list.items = Int32Array.from(rows.length ? rows : [0]);
    list.length = rows.length;
    return list;
  }
}

/** above this many ascending runs a merge costs more than a sort */
const MERGE_RUNS = 16;

/**
 * Rows 0 … size - 1 ordered by time, stable (a row read earlier comes first among equal times). Replay reads the
 * journal agent by agent, so the rows come as a few runs already in time order (one an agent): those are merged,
 * which takes a fraction of what sorting a million rows does; many runs, or a time that is not a number, sort.
 */
export function timeOrder(time: Float64Array, size: number): Int32Array<ArrayBuffer> {
  const starts: number[] = [0];
  for (let r = 1; r < size; r++) {
    const t = time[r] ?? NaN;
    if (Number.isNaN(t)) return sortedByTime(time, size);
    if (t < (time[r - 1] ?? NaN)) {
      starts.push(r);
      if (starts.length > MERGE_RUNS) return sortedByTime(time, size);
    }
  }
  if (size && Number.isNaN(time[0] ?? NaN)) return sortedByTime(time, size);
  const heads = Int32Array.from(starts);
  const ends = Int32Array.from([...starts.slice(1), size]);
  const order = new Int32Array(size);
  for (let out = 0; out < size; out++) {
    let best = -1;
    let bestTime = Infinity;
    for (let k = 0; k < heads.length; k++) {
      const head = heads[k] ?? 0;
      // strictly earlier only: among equal times the earlier run (the rows read first) wins
      if (head < (ends[k] ?? 0) && (best < 0 || (time[head] ?? 0) < bestTime)) {
        best = k;
        bestTime = time[head] ?? 0;
      }
    }
    order[out] = heads[best] ?? 0;
    heads[best] = (heads[best] ?? 0) + 1;
  }
  return order;
}

function sortedByTime(time: Float64Array, size: number): Int32Array<ArrayBuffer> {
  const rows = Array.from({ length: size }, (_, r) => r);
  rows.sort((a, b) => (time[a] ?? 0) - (time[b] ?? 0) || a - b);
  return Int32Array.from(rows);
}
