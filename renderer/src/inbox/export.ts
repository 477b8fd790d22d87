import { AskRecord, type Message } from '../../../bridge/protocol/index.js';
import { kindLabel } from '../cards/options.js';
import { outcomeDetails, outcomeLabel } from '../cards/outcome.js';
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

/**
 * The loaded history as Markdown for people: a section per day, a line per message (time, kind, agent,
 * status, text), each ask with its whole question quoted and how it ended.
 */
export function historyMarkdown(messages: readonly Message[], scope: string, now = new Date()): string {
  const words = t().history;
  const lang = locale();
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
        `- ${time} · ${kindLabel(r.kind)} · ${r.agentId} · **${label}** ${outcomeDetails(r.kind, r, true).map(oneLine).join(' · ')}`,
      );
      out.push(...r.prompt.split('\n').map((line) => `  > ${escapeMarkup(line)}`), '');
      continue;
    }
    const notice = notifyTitle(message);
    const kind = notice !== undefined ? words.notified : messageKindLabel(message.kind);
    const status = notice !== undefined ? '' : ` · ${words.status[message.status]}`;
    const images = message.images?.length ? ` (${words.images(message.images.length)})` : '';
    out.push(
      `- ${time} · ${kind} · ${message.agentId}${status} — ${notice ? `**${oneLine(notice)}** ` : ''}${oneLine(summarize(message))}${images}`,
    );
  }
  return `${out.join('\n').replace(/(?<!\n)\n+$/, '')}\n`;
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
export function exportName(scope: string, extension: 'md' | 'json', now = new Date()): string {
  const when = now.toISOString().slice(0, 16).replace(/:/g, '-');
  const who = scope.replace(/[^a-zA-Z0-9._-]+/g, '-').slice(0, 60);
  return `aiti-history-${who}-${when}.${extension}`;
}
