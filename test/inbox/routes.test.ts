import { describe, expect, it } from 'vitest';
import type { InboxStatusAnswer, MessagesAnswer, PushAnswer } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { SseClient } from '../helpers/sse.js';

describe('push, history and inbox status over HTTP', () => {
  it('stores a push for an offline agent in its inbox, shows it in history and status, and tells the window', async () => {
    const bridge = await startBridge();
    bridge.context.agents.ensure('claude');
    const window = await SseClient.open(`${bridge.url}/bridge/sse?role=ai&token=${bridge.token}`);
    await window.next('state');

    const push = await http(`${bridge.url}/bridge/push`, {
      token: bridge.token,
      body: { to: 'claude', text: 'use the blue button', ref: 'p1' },
    });
    expect(push.status).toBe(200);
    const [delivery] = (push.body as PushAnswer).delivered;
    expect(delivery).toMatchObject({ agentId: 'claude', via: 'inbox' });

    const event = await window.next('message');
    expect(event.data).toMatchObject({
      id: delivery?.msgId,
      text: 'use the blue button',
      status: 'pending',
      ref: 'p1',
    });

    const history = await http(`${bridge.url}/aiti/bridge/messages?agentId=claude`, { token: bridge.token });
    expect(history.status).toBe(200);
    expect((history.body as MessagesAnswer).messages).toMatchObject([
      { id: delivery?.msgId, kind: 'user_message', from: 'window', agentId: 'claude', status: 'pending' },
    ]);

    const status = await http(`${bridge.url}/bridge/inbox-status`, { token: bridge.token });
    expect((status.body as InboxStatusAnswer).agents).toEqual([
      { agentId: 'claude', counts: { pending: 1, delivered: 0, consumed: 0 }, lastActivity: expect.any(String) },
    ]);
    window.close();
  });

  it('lists connected agents with an empty inbox in the status too', async () => {
    const bridge = await startBridge();
    bridge.context.agents.ensure('cursor');
    const status = await http(`${bridge.url}/bridge/inbox-status`, { token: bridge.token });
    expect((status.body as InboxStatusAnswer).agents).toEqual([
      { agentId: 'cursor', counts: { pending: 0, delivered: 0, consumed: 0 } },
    ]);
  });

  it('pushes to every known agent with to:"all" (the default)', async () => {
    const bridge = await startBridge();
    bridge.context.agents.ensure('claude');
    bridge.context.agents.ensure('cursor');
    const push = await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { text: 'stop, please' } });
    expect(push.status).toBe(200);
    expect((push.body as PushAnswer).delivered.map((d) => d.agentId).sort()).toEqual(['claude', 'cursor']);
  });

  it('refuses a push without the token, from a web page origin, to an unknown agent, or to nobody', async () => {
    const bridge = await startBridge();
    const body = { to: 'claude', text: 'hi' };
    expect((await http(`${bridge.url}/bridge/push`, { body })).status).toBe(401);
    const fromPage = await http(`${bridge.url}/bridge/push`, {
      body,
      token: bridge.token,
      headers: { origin: 'http://localhost:3000' },
    });
    expect(fromPage.status).toBe(403);
    const all = await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { text: 'hi' } });
    expect(all).toMatchObject({ status: 409, body: { field: 'to' } });
    bridge.context.agents.ensure('cursor');
    const unknown = await http(`${bridge.url}/bridge/push`, { token: bridge.token, body });
    expect(unknown.status).toBe(404);
    expect((unknown.body as { error: string }).error).toContain('no agent "claude"; known agents: cursor');
    const empty = await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'cursor', text: '' } });
    expect(empty).toMatchObject({ status: 400, body: { field: 'text' } });
    expect((await http(`${bridge.url}/bridge/messages`, {})).status).toBe(401);
  });

  it('explains a bad history cursor', async () => {
    const bridge = await startBridge();
    const res = await http(`${bridge.url}/bridge/messages?before=yesterday`, { token: bridge.token });
    expect(res).toMatchObject({ status: 400, body: { field: 'before' } });
    expect((res.body as { error: string }).error).toContain(
      'before "yesterday" is neither a message id nor an ISO time',
    );
  });

  it('keeps accepted pushes across a restart on the same data dir', async () => {
    const first = await startBridge();
    first.context.agents.ensure('claude');
    const push = await http(`${first.url}/bridge/push`, {
      token: first.token,
      body: { to: 'claude', text: 'remember me' },
    });
    expect(push.status).toBe(200);
    await first.close();
    const second = await startBridge({ dataDir: first.context.config.dataDir });
    const history = await http(`${second.url}/bridge/messages?agentId=claude`, { token: second.token });
    expect((history.body as MessagesAnswer).messages.map((m) => m.text)).toEqual(['remember me']);
  });
});
