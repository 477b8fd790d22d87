import { grown } from './grown.js';

/**
 * Message id → row number, keyed by the id's bytes. Replay finds a million ids in the journal: as JavaScript strings
 * in a Map they took most of the 2 s start budget (a string and a hash entry each, then the garbage collector), here
 * they are bytes in one buffer and an open-addressing table of row numbers. Ids are ASCII (`Id` allows letters,
 * digits and . _ : @ -), so a string id and its bytes hash alike.
 */
export class IdIndex {
  /** every id's bytes, back to back, in row order */
  private bytes = Buffer.alloc(1 << 16);
  private used = 0;
  /** per row: where its id starts in `bytes`, and its length */
  private offset = new Float64Array(1024);
  private length = new Uint8Array(1024);
  private hash = new Int32Array(1024);
  /**
   * open addressing, linear probing, two cells a slot: the id's hash, then row + 1 (0: empty). The hash beside the
   * row spares a probe a visit to the row's bytes, which are elsewhere in memory.
   */
  private slots = new Int32Array(2 << 12);
  private count = 0;

  /** The row holding the id in buf[start..end), or -1. */
  findBytes(buf: Uint8Array, start: number, end: number): number {
    return this.lookup(buf, start, end, hashBytes(buf, start, end));
  }

  private lookup(buf: Uint8Array, start: number, end: number, hash: number): number {
    const slots = this.slots;
    const mask = slots.length / 2 - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[2 * slot + 1] ?? 0;
      if (entry === 0) return -1;
      if (slots[2 * slot] === hash && this.sameBytes(entry - 1, buf, start, end)) return entry - 1;
    }
  }

  /** The row holding the id, or -1. */
  find(id: string): number {
    if (id.length > 255) return -1;
    const encoded = Buffer.from(id, 'latin1');
    // an id with a character beyond ASCII is no id the bridge keeps
    if (encoded.toString('latin1') !== id || encoded.some((c) => c > 0x7f)) return -1;
    return this.findBytes(encoded, 0, encoded.length);
  }

  /**
   * Gives `row` (rows come in order 0, 1, 2 …) the id in buf[start..end); returns -1, or the row that already has
   * that id (then nothing is added and `row` is not used).
   */
  addBytes(buf: Uint8Array, start: number, end: number, row: number): number {
    const hash = hashBytes(buf, start, end);
    const found = this.lookup(buf, start, end, hash);
    if (found >= 0) return found;
    const size = end - start;
    if (this.used + size > this.bytes.length) {
      const larger = Buffer.alloc(Math.max(this.bytes.length * 2, this.used + size));
      this.bytes.copy(larger, 0, 0, this.used);
      this.bytes = larger;
    }
    if (row >= this.offset.length) {
      const rows = this.offset.length * 2;
      this.offset = grown(this.offset, rows);
      this.length = grown(this.length, rows);
      this.hash = grown(this.hash, rows);
    }
    // ids are short: a loop beats making a subarray view for each
    const bytes = this.bytes;
    for (let i = 0; i < size; i++) bytes[this.used + i] = buf[start + i] ?? 0;
    this.offset[row] = this.used;
    this.length[row] = size;
    this.hash[row] = hash;
    this.used += size;
    if (++this.count > this.slots.length / 4) this.rehash();
    this.place(row);
    return -1;
  }

  add(id: string, row: number): number {
    const encoded = Buffer.from(id, 'latin1');
    return this.addBytes(encoded, 0, encoded.length, row);
  }

  /** The id of a row. */
  id(row: number): string {
    const start = this.offset[row] ?? 0;
    return this.bytes.toString('latin1', start, start + (this.length[row] ?? 0));
  }

  private place(row: number): void {
    const slots = this.slots;
    const mask = slots.length / 2 - 1;
    const hash = this.hash[row] ?? 0;
    let slot = hash & mask;
    while (slots[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
    slots[2 * slot] = hash;
    slots[2 * slot + 1] = row + 1;
  }

  /** rows are 0 … count - 1: a row number is used only once its id is added */
  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let row = 0; row < this.count - 1; row++) this.place(row);
  }

  private sameBytes(row: number, buf: Uint8Array, start: number, end: number): boolean {
    const size = end - start;
    if (this.length[row] !== size) return false;
    const at = this.offset[row] ?? 0;
    for (let i = 0; i < size; i++) if (this.bytes[at + i] !== buf[start + i]) return false;
    return true;
  }
}

/** FNV-1a over the bytes */
function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ (buf[i] ?? 0), 0x01000193);
  return hash | 0;
}
