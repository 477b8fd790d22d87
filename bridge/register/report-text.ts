import { stringify } from 'smol-toml';
import { SERVER_NAME } from './clients.js';
import type { ClientReport, RegisterReport, RegisterStatus } from './register.js';

/**
 * The `aiti` entry as its client writes it: a JSON object under its container for the JSON clients, a
 * `[mcp_servers.aiti]` table for Codex, ready to compare with the file or to paste into it by hand.
 */
export function entryText(report: Pick<ClientReport, 'format' | 'container'>, entry: unknown): string {
  const wrapped = { [report.container]: { [SERVER_NAME]: entry } };
  return report.format === 'toml' ? stringify(wrapped).trimEnd() : JSON.stringify(wrapped, null, 2);
}

const indent = (text: string) => text.replace(/^/gm, '      ');

/** What --dry-run shows under a client it would change: the entry now and the one it would write. */
function dryRunDetail(c: ClientReport): string {
  if (c.status === 'added') return `\n    it would write:\n${indent(entryText(c, c.after))}`;
  if (c.status === 'removed') return `\n    it would take out:\n${indent(entryText(c, c.before))}`;
  if (c.status === 'updated') {
    return `\n    now:\n${indent(entryText(c, c.before))}\n    it would write:\n${indent(entryText(c, c.after))}`;
  }
  return '';
}

/** The report as lines for a terminal. */
export function formatReport(report: RegisterReport): string {
  const verb = report.dryRun ? 'would be' : 'was';
  const width = Math.max(...report.clients.map((c) => c.client.length));
  const lines = report.clients.map((c) => {
    const what: Record<RegisterStatus, string> = {
      added: `aiti entry ${verb} added`,
      updated: `aiti entry ${verb} updated`,
      removed: `aiti entry ${verb} removed`,
      unchanged: 'already registered; nothing changed',
      absent: 'no aiti entry; nothing changed',
      'not-found': 'not found (not installed for this user?)',
      error: c.error ?? 'failed',
    };
    const backup = c.backup ? ` (backup: ${c.backup})` : '';
    const detail = report.dryRun ? dryRunDetail(c) : '';
    // an error that names the file already says where: the path once
    const where = c.status === 'error' && c.error?.includes(c.file) ? '' : `${c.file}: `;
    return `${c.client.padEnd(width)}  ${where}${what[c.status]}${backup}${detail}`;
  });
  const command = [report.shim.command, ...report.shim.args].join(' ');
  return [`MCP clients ${report.unregister ? 'without' : 'running'} the shim: ${command}`, ...lines].join('\n') + '\n';
}
