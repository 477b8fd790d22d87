import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AgentId } from '../protocol/index.js';
import type { Logger } from '../log.js';

/**
 * Agent ids are never paths. An id comes from an agent (`aiti_hello {agentId: ".."}`, a client named `..`), and
 * the characters `Id` allows still make `.`, `..`, names Windows reserves (`CON`, `nul.txt`, `COM1`) and `:` (an
 * NTFS stream). Such an id gets a directory named `~` and the base32 of its bytes, which no id can be (`~` is not
 * one of its characters); every other id is its own directory name, as it always was.
 */

/** A name that is the same file name on Linux, macOS and Windows, and names nothing but itself. */
const PLAIN = /^[A-Za-z0-9_@-][A-Za-z0-9._@-]*$/;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;
const ENCODED = '~';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** The directory under `sessions/` that holds an agent's journal files. */
export function agentDirName(agentId: string): string {
  if (PLAIN.test(agentId) && !agentId.endsWith('.') && !WINDOWS_DEVICE.test(agentId)) return agentId;
  return ENCODED + base32(Buffer.from(agentId, 'utf8'));
}

/** The agent id a directory under `sessions/` holds, or undefined when it is not an agent's. */
export function agentOfDirName(name: string): string | undefined {
  const id = name.startsWith(ENCODED) ? unbase32(name.slice(ENCODED.length)) : name;
  return id !== undefined && AgentId.safeParse(id).success ? id : undefined;
}

/** One agent's journal files in the order they were written (their names start with the time). */
export interface AgentJournal {
  agentId: string;
  files: string[];
}

/**
 * Every agent's journal files under `dir` (`<appDir>/sessions`). An id may have files in two directories (its old
 * plain one, such as `a:b` on Linux, and the encoded one), and older bridges wrote the files of `.` straight into
 * `sessions/` and those of `..` into `<appDir>/`: all of them are found and read in writing order.
 */
export function agentJournals(dir: string, log: Logger): AgentJournal[] {
  const byAgent = new Map<string, string[]>();
  const add = (agentId: string, path: string) => byAgent.set(agentId, [...(byAgent.get(agentId) ?? []), path]);
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    log.warn(`journal: cannot list ${dir}: ${(error as Error).message}; starting empty`);
    return [];
  }
  for (const entry of entries) {
    const agentId = entry.isDirectory() ? agentOfDirName(entry.name) : undefined;
    if (agentId === undefined) continue;
    const agentDir = join(dir, entry.name);
    try {
      for (const name of readdirSync(agentDir)) if (name.endsWith('.jsonl')) add(agentId, join(agentDir, name));
    } catch (error) {
      log.warn(`journal: cannot list ${agentDir}: ${(error as Error).message}; skipped`);
    }
  }
  for (const [where, agentId] of [
    [dir, '.'],
    [dirname(dir), '..'],
  ] as const) {
    for (const path of strayJournalFiles(where, agentId)) add(agentId, path);
  }
  return [...byAgent].map(([agentId, files]) => ({
    agentId,
    files: files.sort((a, b) => (basename(a) < basename(b) ? -1 : basename(a) > basename(b) ? 1 : 0)),
  }));
}

/** A journal file's name: `<ISO time with - for :>_<uuid>.jsonl`. */
const JOURNAL_FILE = /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z_[0-9a-f-]{36}\.jsonl$/;

/** The time (ms) a journal file's name starts with, or undefined for another name. */
export function stampOf(name: string): number | undefined {
  const stamp = Date.parse(name.slice(0, name.indexOf('_')).replace(/T(\d\d)-(\d\d)-/, 'T$1:$2:'));
  return Number.isFinite(stamp) ? stamp : undefined;
}

/** Journal files an older bridge wrote into `where` for the id `.` or `..` (their first line says whose). */
function strayJournalFiles(where: string, agentId: string): string[] {
  let names: string[];
  try {
    names = readdirSync(where).filter((name) => JOURNAL_FILE.test(name));
  } catch {
    return [];
  }
  return names.map((name) => join(where, name)).filter((path) => sessionAgentOf(path) === agentId);
}

function sessionAgentOf(path: string): string | undefined {
  const buffer = Buffer.alloc(512);
  let read = 0;
  try {
    const fd = openSync(path, 'r');
    try {
      read = readSync(fd, buffer, 0, buffer.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const text = buffer.toString('utf8', 0, read);
  const newline = text.indexOf('\n');
  try {
    const line = JSON.parse(newline < 0 ? text : text.slice(0, newline)) as { type?: unknown; agentId?: unknown };
    return line.type === 'session' && typeof line.agentId === 'string' ? line.agentId : undefined;
  } catch {
    return undefined;
  }
}

function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

function unbase32(text: string): string | undefined {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text) {
    const digit = BASE32.indexOf(char);
    if (digit < 0) return undefined;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
