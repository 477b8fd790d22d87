import { describe, expect, it } from 'vitest';
import { http, startBridge, tempDir } from '../helpers/bridge.js';

const reply = (id: string, text: string, uses = 0) => ({ id, kind: 'answer', text, uses });

describe('quick replies in the data dir', () => {
  it('a saved list is on disk when the PUT answers, and a restarted bridge reads it back', async () => {
    const dataDir = tempDir();
    const first = await startBridge({ dataDir });
    const list = {
      replies: [reply('ship', 'Ship it', 3), { ...reply('later', 'Not before the review'), kind: 'reason' }],
    };
    const saved = await http(`${first.url}/bridge/quick-replies`, { method: 'PUT', token: first.token, body: list });
    expect(saved.status).toBe(200);
    await first.close();
    const second = await startBridge({ dataDir });
    const read = await http(`${second.url}/bridge/quick-replies`, { token: second.token });
    expect(read.body).toEqual(list);
  });

  it('refuses a list it cannot keep whole, naming the problem, and keeps the one it had', async () => {
    const bridge = await startBridge();
    const put = (body: unknown) =>
      http(`${bridge.url}/bridge/quick-replies`, { method: 'PUT', token: bridge.token, body });
    expect((await put({ replies: [reply('a', 'Yes')] })).status).toBe(200);
    const twice = await put({ replies: [reply('a', 'one'), reply('a', 'two')] });
    expect(twice.status).toBe(400);
    expect(JSON.stringify(twice.body)).toContain('same id');
    const empty = await put({ replies: [reply('b', '   ')] });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('needs some text');
    const path = await put({ replies: [reply('../token', 'x')] });
    expect(path.status).toBe(400);
    expect((await http(`${bridge.url}/bridge/quick-replies`, { token: bridge.token })).body).toEqual({
      replies: [reply('a', 'Yes')],
    });
  });
});
