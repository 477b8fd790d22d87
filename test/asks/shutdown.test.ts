import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { AskOutcome, JournalLine, type AskRecord } from '../../bridge/protocol/index.js';
import { tempDir } from '../helpers/bridge.js';
import { CHILD_TOKEN, spawnBridge } from '../helpers/child-bridge.js';
import { connectAgent, type AgentTransportKind } from '../helpers/mcp.js';
import { SseClient } from '../helpers/sse.js';

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Every ask record in the journals under dataDir. */
function journaledAsks(dataDir: string): AskRecord[] {
  const root = join(dataDir, 'aiti-bridge', 'sessions');
  const records: AskRecord[] = [];
  for (const agent of readdirSync(root))
    for (const file of readdirSync(join(root, agent)))
      for (const raw of readFileSync(join(root, agent, file), 'utf8')
        .split('\n')
        .filter(Boolean)) {
        const line = JournalLine.parse(JSON.parse(raw));
        if (line.type === 'message' && line.message.kind === 'ask') records.push(line.message.payload as AskRecord);
      }
  return records;
}

/**
 * README "Asking the human": stopping the bridge answers every open sync ask `cancelled`, with the reason,
 * before the process exits. Proven with the official MCP SDK client, over Streamable HTTP and through the stdio
 * shim, against a bridge in a child process that gets SIGTERM (what `kill`, systemd or a terminal's close send).
 */
describe('SIGTERM with a question in flight', () => {
  for (const transport of ['streamable', 'stdio'] as AgentTransportKind[]) {
    it(`answers the waiting ${transport} user_confirm call "cancelled" with the reason, and journals it`, async () => {
      const dataDir = tempDir();
      const bridge = await spawnBridge(dataDir);
      const window = await SseClient.open(`${bridge.url}/bridge/sse?role=ai&token=${CHILD_TOKEN}`);
      await window.next('state');
      const agent = await connectAgent(bridge.url, { transport, clientName: `shutdown-${transport}` });

      const call = agent.callTool(
        { name: 'user_confirm', arguments: { prompt: 'Apply the migration?', timeoutMs: 600_000 } },
        undefined,
        { timeout: 20_000 },
      );
      await window.next('ask', 10_000);
      const exit = exited(bridge.child);
      bridge.child.kill('SIGTERM');

      const result = (await call) as { isError?: boolean; structuredContent?: unknown };
      const outcome = AskOutcome.parse(result.structuredContent);
      expect(outcome.status).toBe('cancelled');
      expect(outcome.text).toMatch(/bridge is shutting down/);
      expect(outcome.hint).toMatch(/bridge stopped/);
      expect(await exit).toBe(0);

      const records = journaledAsks(dataDir);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({
        askId: outcome.askId,
        prompt: 'Apply the migration?',
        status: 'cancelled',
        decidedBy: 'bridge',
      });
    });
  }
});
