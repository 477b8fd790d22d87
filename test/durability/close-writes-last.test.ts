import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBridge } from '../../bridge/bridge.js';
import { onCleanup, tempDir } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';

/**
 * A closed bridge writes nothing more in its data dir: the next bridge may own it from the moment close() resolves.
 * A session that ended just before the close (its client went away) had its line written in the background after
 * close resolved, which a full run saw as a test's data dir that would not go away (ENOTEMPTY).
 */
describe('close is the last write', () => {
  it('a session ended just before close has its line on disk when close resolves', async () => {
    const dataDir = tempDir();
    const file = join(dataDir, 'aiti-bridge', 'mcp-sessions.jsonl');
    const lines = () => readFileSync(file, 'utf8').trim().split('\n');
    for (let round = 0; round < 5; round++) {
      const bridge = await createBridge({ port: 0, dataDir });
      onCleanup(() => bridge.close());
      const agent = await connectAgent(bridge.url, { clientName: `leaving-${round}` });
      await agent.callTool({ name: 'bridge_status', arguments: {} });
      await waitFor(
        () => lines().some((line) => line.includes(`"leaving-${round}"`)),
        5000,
        'this round’s session line',
      );
      const before = lines().length;
      // the client goes away (its session ends, and that line is written in the background); the bridge closes
      await (agent.transport as StreamableHTTPClientTransport).terminateSession();
      await bridge.close();
      const ended = lines().slice(before);
      expect(ended, `round ${round}`).toEqual([expect.stringContaining('"ended":true')]);
      await agent.close();
    }
  });

  it("an agent token's last use, noted as it came, is on disk when close resolves", async () => {
    const dataDir = tempDir();
    const file = join(dataDir, 'aiti-bridge', 'agent-tokens.jsonl');
    for (let round = 0; round < 5; round++) {
      const bridge = await createBridge({ port: 0, dataDir, remote: { host: '127.0.0.1', port: 0 } });
      onCleanup(() => bridge.close());
      const { token, record } = await bridge.context.agentTokens.create(`far-${round}`, 3_600_000);
      // any request the token opens notes its use, in the background
      const used = await fetch(`${bridge.remote?.url ?? ''}/bridge/health`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await used.body?.cancel();
      await bridge.close();
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      expect(
        lines.some((line) => line.includes('"op":"used"') && line.includes(record.id)),
        `round ${round}`,
      ).toBe(true);
    }
  });
});
