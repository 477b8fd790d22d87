import { AskRecord, type Json, type Message } from '../../../bridge/protocol/index.js';
import { kindLabel } from '../cards/options.js';
import { decidedByText, outcomeDetails, outcomeLabel, valueText } from '../cards/outcome.js';
import { endText, promptOf } from '../cards/said.js';
import { locale, t } from '../i18n/index.js';
import { messageKindLabel, notifyTitle, summarize } from './summary.js';

/** The loaded history as JSON: the messages exactly as the bridge gave them, oldest first, and what they are. */
export function historyJson(messages: readonly Message[], scope: string, now = new Date()): string {
  const oldestFirst = [...messages].reverse();
  return `${JSON.stringify({ exportedAt: now.toISOString(), scope, count: messages.length, messages: oldestFirst }, null, 2)}\n`;
}

/**
 * Agent, page and device text as Markdown that is only text: no HTML (a viewer that renders inline HTML would load
 * an agent's `<img src=…>` or `<iframe>` when the history is read, and call home), and no links or images (`[x](…)`,
 * `<javascript:…>`): `&`, `<` and `>` become character references, `\`, `[` and `]` are escaped.
 */
export function escapeMarkup(text: string): string {
  return text.replace(/[&<>\\[\]]/g, (c) => MARKUP[c] ?? c);
}
const MARKUP: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\\': '\\\\', '[': '\\[', ']': '\\]' };

/** Text that goes on one Markdown line: no line breaks, nothing read as markup at the start, no HTML or links. */
const oneLine = (text: string) =>
  escapeMarkup(text)
    .replace(/(?<!\s)\s*\n\s*/g, ' ⏎ ')
    .replace(/^([#>*+-]|\d+\.)\s/, '\\$1 ');

/** A fence longer than any run of backticks in the text, so a script cannot close its own code block. */
const fenceFor = (text: string) => '`'.repeat(Math.max(3, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length + 1)));

/** A page command's arguments as they ran (or would have): each string whole, in its own code block. */
function commandLines(command: { cmd: string; args: Json }): string[] {
  const lines = [`  - ${t().history.command}: \`${command.cmd}\``];
  const args = command.args;
  const fields: Array<[string, Json]> =
    args && typeof args === 'object' && !Array.isArray(args) ? Object.entries(args) : [['args', args]];
  for (const [name, value] of fields) {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const fence = fenceFor(text);
    lines.push(`  - ${name}:`, '', `    ${fence}${typeof value === 'string' && name === 'expression' ? 'js' : ''}`);
    lines.push(...text.split('\n').map((line) => `    ${line}`), `    ${fence}`, '');
  }
  return lines;
}

/**
 * The loaded history as Markdown for people: a section per day, a line per message (time, kind, agent,
 * status, text), each ask with its whole question quoted, how it ended, who decided (and where), and a page
 * command's script or arguments whole.
 */
export function historyMarkdown(messages: readonly Message[], scope: string, now = new Date()): string {
  const words = t().history;
  const lang = locale();
  const records = askRecordsOf(messages);
  const out = [`# AITI Bridge — ${scope}`, '', `${now.toLocaleString(lang)} · ${messages.length}`, ''];
  let day = '';
  for (const message of [...messages].reverse()) {
    const at = new Date(message.at);
    const today = at.toLocaleDateString(lang, { year: 'numeric', month: 'long', day: 'numeric', weekday: 'long' });
    if (today !== day) out.push(`## ${(day = today)}`, '');
    const time = at.toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
    const record = message.kind === 'ask' ? AskRecord.safeParse(message.payload) : undefined;
    if (record?.success) {
      const r = record.data;
      const { label } = outcomeLabel(r.kind, { outcome: r, here: true });
      out.push(
        `- ${time} · ${kindLabel(r.kind)} · ${r.agentId} · **${label}** ${outcomeDetails(r.kind, r, false).map(oneLine).join(' · ')}`,
      );
      out.push(
        ...promptOf(r)
          .split('\n')
          .map((line) => `  > ${escapeMarkup(line)}`),
        '',
      );
      if (r.command) out.push(...commandLines(r.command));
      continue;
    }
    const notice = notifyTitle(message);
    const kind = notice !== undefined ? words.notified : messageKindLabel(message.kind);
    const status = notice !== undefined ? '' : ` · ${words.status[message.status]}`;
    const images = message.images?.length ? ` (${words.images(message.images.length)})` : '';
    out.push(
      `- ${time} · ${kind} · ${message.agentId}${status} — ${notice ? `**${oneLine(notice)}** ` : ''}${oneLine(summarize(message, records))}${images}`,
    );
  }
  return `${out.join('\n').replace(/(?<!\n)\n+$/, '')}\n`;
}

function askRecordsOf(messages: readonly Message[]): Map<string, AskRecord> {
  const records = new Map<string, AskRecord>();
  for (const m of messages) {
    const parsed = m.kind === 'ask' ? AskRecord.safeParse(m.payload) : undefined;
    if (parsed?.success) records.set(parsed.data.askId, parsed.data);
  }
  return records;
}

/** A command's arguments for one cell: each on its own line, a string as written (a script whole). */
function argsText(args: Json): string {
  const fields: Array<[string, Json]> =
    args && typeof args === 'object' && !Array.isArray(args) ? Object.entries(args) : [['args', args]];
  return fields
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}

/** One CSV field: quoted when it holds a quote, comma or line break (RFC 4180); a leading = + - @ is defused. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The loaded history as CSV for a spreadsheet, oldest first: one row per message, an ask's row with its question,
 * answer, who decided and where, and a page command's name and whole script or arguments.
 */
export function historyCsv(messages: readonly Message[]): string {
  const words = t().history;
  const head = words.csv;
  const records = askRecordsOf(messages);
  const rows: string[][] = [
    [
      head.time,
      head.agent,
      head.kind,
      head.status,
      head.decided,
      head.question,
      head.answer,
      head.command,
      head.args,
      head.text,
    ],
  ];
  for (const message of [...messages].reverse()) {
    const parsed = message.kind === 'ask' ? AskRecord.safeParse(message.payload) : undefined;
    if (parsed?.success) {
      const r = parsed.data;
      const answer = r.status === 'answered' || r.status === 'away' ? valueText(r.kind, r.value) : '';
      rows.push([
        r.endedAt,
        r.agentId,
        kindLabel(r.kind),
        outcomeLabel(r.kind, { outcome: r, here: true }).label,
        decidedByText(r, false),
        promptOf(r),
        [answer, r.reason && t().reject.presets[r.reason], r.note].filter(Boolean).join(' · '),
        r.command?.cmd ?? '',
        r.command ? argsText(r.command.args) : '',
        endText(r) ?? '',
      ]);
      continue;
    }
    const notice = notifyTitle(message);
    rows.push([
      message.at,
      message.agentId,
      notice !== undefined ? words.notified : messageKindLabel(message.kind),
      notice !== undefined ? '' : words.status[message.status],
      '',
      '',
      '',
      '',
      '',
      [notice, summarize(message, records)].filter(Boolean).join(' · '),
    ]);
  }
  // a byte-order mark, so a spreadsheet reads the file as UTF-8 (Chinese text, ⏎ …)
  return `\uFEFF${rows.map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** Hands a file to the browser's downloads (the desktop app asks where to save it). */
export function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** `aiti-history-claude-2026-11-30T14-03.md`: the agent (or `all`) and when, safe as a file name anywhere. */
export function exportName(scope: string, extension: 'md' | 'json' | 'csv', now = new Date()): string {
  const when = now.toISOString().slice(0, 16).replace(/:/g, '-');
  const who = scope.replace(/[^a-zA-Z0-9._-]+/g, '-').slice(0, 60);
  return `aiti-history-${who}-${when}.${extension}`;
}
