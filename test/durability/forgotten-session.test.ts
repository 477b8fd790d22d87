import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bridge.js';
import { CHILD_TOKEN, kill, spawnBridge } from '../helpers/child-bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';
import { windowState } from '../helpers/window.js';

/**
 * Finding 5 of issue 37, the way it hung in a traced run: a client opened its session just before the bridge was
 * killed, the session's line never reached mcp-sessions.jsonl (it is written in the background), and the restarted
 * bridge answered the resume of the call's stream with 404. The official SDK client gives up a resume refused twice
 * and leaves the call waiting for its own time-out. The resume must end the call at once, saying why.
 */
const CLIENT_TIMEOUT_MS = 60_000;

const openAsks = async (url: string) => (await windowState(url, CHILD_TOKEN)).asks.length;

describe('a call across a restart that forgot its session (issue 37, finding 5)', () => {
  it('ends with "its answer is lost", not at the client’s time-out', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const agent = await connectAgent(first.url, { clientName: 'forgotten' });
    const call = agent
      .callTool({ name: 'user_confirm', arguments: { prompt: 'Deploy?' } }, undefined, { timeout: CLIENT_TIMEOUT_MS })
      .then(
        (result) => ({ result }),
        (error: Error) => ({ error: error.message }),
      );
    await waitFor(async () => (await openAsks(first.url)) === 1, 10_000, 'the question on the human’s screen');
    await kill(first.child);
    // what a SIGKILL right after initialize leaves: the session's line not yet written
    rmSync(join(dataDir, 'aiti-bridge', 'mcp-sessions.jsonl'), { force: true });
    await spawnBridge(dataDir, { port: first.port });

    const ended = await call;
    expect(ended).toMatchObject({
      result: { isError: true, content: [{ type: 'text', text: expect.stringMatching(/answer is lost.*call again/) }] },
    });
    // and the client's next request says the session is gone, so it opens a new one
    const next = await agent.callTool({ name: 'bridge_status', arguments: {} }).catch((error: Error) => error.message);
    expect(next).toMatch(/session .* is not known/);
  }, 90_000);
});
