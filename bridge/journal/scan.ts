import {
  ID_CHAR,
  ID_MAX_LENGTH,
  Message as MessageSchema,
  MessageKind as MessageKindSchema,
  MessageStatus as MessageStatusSchema,
  type Message,
  type MessageKind,
  type MessageStatus,
} from '../protocol/index.js';

// the wire schemas' own lists, in their order: a line's head (and an inbox row) keeps each as its index
export const KINDS: readonly MessageKind[] = MessageKindSchema.options;
export const FROMS: readonly Message['from'][] = MessageSchema.shape.from.options;
/** in rank order: a status only moves up */
export const STATUSES: readonly MessageStatus[] = MessageStatusSchema.options;

/** The head of a message line read without parsing its body; one scratch object is reused for every line. */
export interface LineHead {
  /** the file's bytes; the id is bytes idStart..idEnd (IdIndex keeps it without making a string) */
  buf: Buffer;
  idStart: number;
  idEnd: number;
  /** indexes into KINDS, FROMS, STATUSES (above) */
  kind: number;
  from: number;
  status: number;
  agentId: string;
  /** `at` in ms; the line's `at` is exactly new Date(time).toISOString() */
  time: number;
  /** whether the line holds a body (text, payload, ref, images) left on disk at start..end */
  hasBody: boolean;
  start: number;
  end: number;
}

/** A status_change line read the same way. */
export interface StatusHead {
  buf: Buffer;
  idStart: number;
  idEnd: number;
  status: number;
  time: number;
}

const bytes = (text: string) => Buffer.from(text, 'latin1');
// The prefixes JSON.stringify writes for the lines this bridge journals (Inbox.add builds messages in this key order)
const MESSAGE_HEAD = bytes('{"type":"message","message":{"id":"');
const STATUS_HEAD = bytes('{"type":"status_change","id":"');
const KIND = bytes('","kind":"');
const FROM = bytes('","from":"');
const AGENT = bytes('","agentId":"');
const AT = bytes(',"at":"');
const STATUS_AT = bytes('","at":"');
const MESSAGE_TAILS = STATUSES.map((status) => bytes(`","status":"${status}"}}`));
const STATUS_NAMES = STATUSES.map((status) => bytes(`","status":"${status}`));
/** each word with its closing quote, so a match also ends the field */
const closedList = (words: readonly string[]) => words.map((value) => bytes(`${value}"`));
const KIND_WORDS = closedList(KINDS);
const FROM_WORDS = closedList(FROMS);
/** the shape of Date.prototype.toISOString: d digit, anything else literal */
const ISO = 'dddd-dd-ddTdd:dd:dd.dddZ';
const QUOTE = 0x22;
const EMPTY = Buffer.alloc(0);
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function matches(buf: Buffer, at: number, pattern: Buffer): boolean {
  if (at < 0 || at + pattern.length > buf.length) return false;
  for (let i = 0; i < pattern.length; i++) if (buf[at + i] !== pattern[i]) return false;
  return true;
}

/** the bytes `Id` allows (protocol/common.ts): letters, digits and . _ : @ - */
const ID_BYTE = new Uint8Array(256);
for (let c = 0; c < 128; c++) if (ID_CHAR.test(String.fromCharCode(c))) ID_BYTE[c] = 1;

/** End (the closing quote) of an id made of the characters `Id` allows, or -1. */
function idEnd(buf: Buffer, start: number, limit: number): number {
  // the longest id, then its closing quote
  const stop = Math.min(limit, start + ID_MAX_LENGTH + 1);
  for (let i = start; i < stop; i++) {
    const c = buf[i] ?? 0;
    if (c === QUOTE) return i > start ? i : -1;
    if (ID_BYTE[c] !== 1) return -1;
  }
  return -1;
}

/** The number written in `width` digits at `start`, or -1 when one is not a digit. */
function digits(buf: Buffer, start: number, width: number): number {
  let value = 0;
  for (let i = 0; i < width; i++) {
    const d = (buf[start + i] ?? 0) - 0x30;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/** ms of a time written as Date.prototype.toISOString writes it (so that it turns back into the same text), or NaN. */
function isoTime(buf: Buffer, start: number): number {
  if (
    buf[start + 4] !== 0x2d ||
    buf[start + 7] !== 0x2d ||
    buf[start + 10] !== 0x54 ||
    buf[start + 13] !== 0x3a ||
    buf[start + 16] !== 0x3a ||
    buf[start + 19] !== 0x2e ||
    buf[start + 23] !== 0x5a
  )
    return NaN;
  const year = digits(buf, start, 4);
  const month = digits(buf, start + 5, 2);
  const day = digits(buf, start + 8, 2);
  const hour = digits(buf, start + 11, 2);
  const minute = digits(buf, start + 14, 2);
  const second = digits(buf, start + 17, 2);
  const ms = digits(buf, start + 20, 3);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && !leap ? 28 : (DAYS[month - 1] ?? 0);
  const valid = year >= 1000 && month >= 1 && day >= 1 && day <= days && hour >= 0 && hour <= 23;
  if (!valid || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) return NaN;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

/** The index of the word of a closed list that starts at `start`, or -1 (no string is made). */
function word(buf: Buffer, start: number, words: Buffer[]): number {
  for (let i = 0; i < words.length; i++) if (matches(buf, start, words[i] ?? EMPTY)) return i;
  return -1;
}

/** The agent id a file's directory names, with the closing quote, to recognise it in that file's lines. */
export interface DirAgent {
  id: string;
  quoted: Buffer;
}

export function dirAgent(id: string): DirAgent {
  return { id, quoted: bytes(`${id}"`) };
}

/**
 * Reads the head of a message line the bridge wrote (`start`..`end`, without the newline) into `head` without
 * parsing its body; false when the line is not in that exact form (the caller then parses it whole, with the schema).
 */
export function scanMessage(buf: Buffer, start: number, end: number, agent: DirAgent, head: LineHead): boolean {
  if (!matches(buf, start, MESSAGE_HEAD)) return false;
  const idStart = start + MESSAGE_HEAD.length;
  const idStop = idEnd(buf, idStart, end);
  if (idStop < 0 || !matches(buf, idStop, KIND)) return false;
  const kindStart = idStop + KIND.length;
  const kind = word(buf, kindStart, KIND_WORDS);
  if (kind < 0) return false;
  const fromStart = kindStart + (KIND_WORDS[kind]?.length ?? 0) - 1;
  if (!matches(buf, fromStart, FROM)) return false;
  const from = word(buf, fromStart + FROM.length, FROM_WORDS);
  if (from < 0) return false;
  const agentField = fromStart + FROM.length + (FROM_WORDS[from]?.length ?? 0) - 1;
  if (!matches(buf, agentField, AGENT)) return false;
  const agentStart = agentField + AGENT.length;
  const sameAgent = matches(buf, agentStart, agent.quoted);
  const agentStop = sameAgent ? agentStart + agent.id.length : idEnd(buf, agentStart, end);
  if (agentStop < 0) return false;
  let status = -1;
  for (let i = 0; i < MESSAGE_TAILS.length; i++) {
    const tail = MESSAGE_TAILS[i] ?? EMPTY;
    if (matches(buf, end - tail.length, tail)) {
      status = i;
      break;
    }
  }
  if (status < 0) return false;
  const atStart = end - (MESSAGE_TAILS[status]?.length ?? 0) - ISO.length;
  if (atStart - AT.length <= agentStop || !matches(buf, atStart - AT.length, AT)) return false;
  const time = isoTime(buf, atStart);
  if (Number.isNaN(time)) return false;
  // whatever lies between agentId and at is the body: text, payload, ref, images (each `,"key":…`)
  const bodyStart = agentStop + 1;
  const hasBody = atStart - AT.length > bodyStart;
  if (hasBody && !(buf[bodyStart] === 0x2c && buf[bodyStart + 1] === QUOTE)) return false;
  head.buf = buf;
  head.idStart = idStart;
  head.idEnd = idStop;
  head.kind = kind;
  head.from = from;
  head.status = status;
  head.agentId = sameAgent ? agent.id : buf.toString('latin1', agentStart, agentStop);
  head.time = time;
  head.hasBody = hasBody;
  head.start = start;
  head.end = end;
  return true;
}

/** Reads a status_change line the bridge wrote into `change`; false when it is not in that exact form. */
export function scanStatusChange(buf: Buffer, start: number, end: number, change: StatusHead): boolean {
  if (!matches(buf, start, STATUS_HEAD)) return false;
  const idStart = start + STATUS_HEAD.length;
  const idStop = idEnd(buf, idStart, end);
  if (idStop < 0) return false;
  for (let i = 0; i < STATUS_NAMES.length; i++) {
    const name = STATUS_NAMES[i] ?? EMPTY;
    if (!matches(buf, idStop, name)) continue;
    const atStart = idStop + name.length + STATUS_AT.length;
    const ok =
      matches(buf, idStop + name.length, STATUS_AT) &&
      atStart + ISO.length + 2 === end &&
      buf[end - 2] === QUOTE &&
      buf[end - 1] === 0x7d;
    const time = ok ? isoTime(buf, atStart) : NaN;
    if (Number.isNaN(time)) return false;
    change.buf = buf;
    change.idStart = idStart;
    change.idEnd = idStop;
    change.status = i;
    change.time = time;
    return true;
  }
  return false;
}

/** The objects a replay reads each line's head into, one of each kind, reused line after line. */
export function lineHeads(): { head: LineHead; change: StatusHead } {
  const buf = Buffer.alloc(0);
  return {
    head: {
      buf,
      idStart: 0,
      idEnd: 0,
      kind: 0,
      from: 0,
      status: 0,
      agentId: '',
      time: 0,
      hasBody: false,
      start: 0,
      end: 0,
    },
    change: { buf, idStart: 0, idEnd: 0, status: 0, time: 0 },
  };
}
