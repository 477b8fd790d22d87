import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Bridge } from '../../bridge/bridge.js';
import type { InboxResult, Message, MessagesAnswer, PushAnswer } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { windowClient } from '../helpers/window.js';
import { waitFor } from '../helpers/wait.js';

/** A 1×1 PNG, as a screenshot pasted into the composer arrives. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const ChannelNotification = z.object({
  method: z.literal('notifications/claude/channel'),
  params: z.object({ content: z.string(), meta: z.record(z.string(), z.string()).optional() }),
});

type SamplingContent = { type: string; text?: string; data?: string; mimeType?: string };

/** The three kinds of agents a human talks to at once, each through the official MCP SDK client. */
async function threeAgents(bridge: Bridge) {
  // Claude Code: the stdio shim, with the experimental claude/channel capability
  const channel = await connectAgent(bridge.url, {
    transport: 'stdio',
    clientName: 'claude-code',
    capabilities: { experimental: { 'claude/channel': {} } },
  });
  const shown: string[] = [];
  channel.setNotificationHandler(ChannelNotification, (n) => void shown.push(n.params.content));

  // a client that declared sampling: each push is a sampling request to its model
  const sampler = await connectAgent(bridge.url, { clientName: 'sampler', capabilities: { sampling: {} } });
  const sampled: SamplingContent[][] = [];
  sampler.setRequestHandler(CreateMessageRequestSchema, (request) => {
    sampled.push(request.params.messages.flatMap((m) => m.content as SamplingContent | SamplingContent[]));
    return { role: 'assistant', content: { type: 'text', text: 'On it.' }, model: 'test-model' };
  });

  // a client with neither: it reads aiti_inbox
  const plain = await connectAgent(bridge.url, { clientName: 'plain' });

  for (const client of [channel, sampler, plain]) expect((await callTool(client, 'aiti_hello')).isError).toBeFalsy();
  await waitFor(
    () => {
      const links = (id: string) => {
        const agent = bridge.context.agents.get(id);
        return agent ? bridge.context.agents.channels(agent) : [];
      };
      return links('claude-code').includes('channel') && links('sampler').includes('sampling');
    },
    15_000,
    'the channel and sampling links',
  );
  return { channel, shown, sampler, sampled, plain };
}

async function inbox(client: Client): Promise<InboxResult & CallToolResult> {
  const result = await callTool(client, 'aiti_inbox');
  return { ...result, ...(result.structuredContent as InboxResult) };
}

const imagesOf = (result: CallToolResult) =>
  result.content.filter((c): c is { type: 'image'; data: string; mimeType: string } => c.type === 'image');

async function statusOf(bridge: Bridge, agentId: string, msgId: string | undefined): Promise<string | undefined> {
  const history = await http(`${bridge.url}/bridge/messages?agentId=${agentId}`, { token: bridge.token });
  return (history.body as MessagesAnswer).messages.find((m) => m.id === msgId)?.status;
}

describe('every agent gets the whole message', () => {
  it('a pushed image reaches the channel, the sampling and the inbox-only agent; "delivered" only where it was read', async () => {
    const bridge = await startBridge();
    const { channel, shown, sampler, sampled, plain } = await threeAgents(bridge);

    const pushed = await http(`${bridge.url}/bridge/push`, {
      token: bridge.token,
      body: { text: 'the header is misaligned, see the screenshot', images: [{ mimeType: 'image/png', data: PNG }] },
    });
    expect(pushed.status).toBe(200);
    const byAgent = new Map((pushed.body as PushAnswer).delivered.map((d) => [d.agentId, d]));
    // the window is told the channel carried the text only, and the image waits in the inbox
    expect(byAgent.get('claude-code')).toMatchObject({ via: 'channel', imagesWaiting: 1 });
    expect(byAgent.get('sampler')).toMatchObject({ via: 'sampling' });
    expect(byAgent.get('sampler')?.imagesWaiting).toBeUndefined();
    expect(byAgent.get('plain')).toMatchObject({ via: 'inbox' });

    // channel: the conversation shows the text and says an image is waiting …
    await waitFor(() => shown.length === 1, 10_000, 'the channel notification');
    expect(shown[0]).toContain('the header is misaligned');
    expect(shown[0]).toContain('1 image came with it and wait in your inbox: call aiti_inbox');
    // … so it is not "delivered" yet; aiti_inbox hands over the image itself
    expect(await statusOf(bridge, 'claude-code', byAgent.get('claude-code')?.msgId)).toBe('pending');
    expect(resultText(await callTool(channel, 'bridge_status'))).toContain('unread message');
    const fromChannel = await inbox(channel);
    expect(fromChannel.messages.map((m) => m.id)).toEqual([byAgent.get('claude-code')?.msgId]);
    expect(imagesOf(fromChannel)).toEqual([{ type: 'image', mimeType: 'image/png', data: PNG }]);

    // sampling: the model gets the text and the image as image content; then it counts as delivered
    await waitFor(() => sampled.length === 1, 10_000, 'the sampling request');
    expect(sampled[0]?.find((c) => c.type === 'text')?.text).toContain('1 image attached below');
    expect(sampled[0]?.filter((c) => c.type === 'image')).toEqual([
      { type: 'image', mimeType: 'image/png', data: PNG },
    ]);
    await waitFor(
      async () => (await statusOf(bridge, 'sampler', byAgent.get('sampler')?.msgId)) === 'delivered',
      10_000,
      'the sampled push marked delivered',
    );
    expect(resultText(await callTool(sampler, 'bridge_status'))).not.toContain('unread message');

    // inbox only: the image comes with aiti_inbox
    const fromPlain = await inbox(plain);
    expect(imagesOf(fromPlain)).toEqual([{ type: 'image', mimeType: 'image/png', data: PNG }]);
  }, 60_000);

  it('an async answer is in aiti_inbox with its askId and question, whatever else carried it', async () => {
    const bridge = await startBridge();
    const { channel, shown, sampler, sampled, plain } = await threeAgents(bridge);
    const human = await windowClient(bridge);

    for (const [client, prompt] of [
      [channel, 'Rename the invoices table?'],
      [sampler, 'Ship the beta today?'],
      [plain, 'Keep the old endpoint?'],
    ] as const) {
      const asked = await callTool(client, 'user_confirm', { prompt, async: true });
      const { askId } = asked.structuredContent as { askId: string };
      const card = await human.nextAsk();
      expect(card.askId).toBe(askId);
      expect((await human.act({ askId, action: 'answer', value: true, note: 'go' })).status).toBe(200);
      // the unread notice follows on the agent's next tool result, whatever channel also carried the answer
      await waitFor(
        async () => resultText(await callTool(client, 'bridge_status')).includes(`— to ${askId}:`),
        10_000,
        `the notice of the answer to ${askId}`,
      );
      const read = await inbox(client);
      const answer = read.messages.find((m: Message) => m.kind === 'user_answer');
      expect(answer).toMatchObject({
        ref: askId,
        text: `the human answered true (note: go) — to ${askId}: "${prompt}"`,
        payload: { askId, question: prompt, status: 'answered', value: true, note: 'go' },
      });
    }
    // the channel and sampling agents were also told at once
    await waitFor(() => shown.some((t) => t.includes('Rename the invoices table?')), 10_000, 'the channel copy');
    await waitFor(
      () => sampled.some((m) => m.some((c) => c.text?.includes('Ship the beta today?'))),
      10_000,
      'the sampling copy',
    );
  }, 60_000);
});

describe('the window reads a kept image by its id only', () => {
  it('with the token, an id the store made gives the bytes and their type; a path or a stranger id is refused', async () => {
    const bridge = await startBridge();
    await connectAgent(bridge.url, { clientName: 'plain' }).then((c) => callTool(c, 'aiti_hello'));
    const pushed = await http(`${bridge.url}/bridge/push`, {
      token: bridge.token,
      body: { text: 'logo', images: [{ mimeType: 'image/png', data: PNG }] },
    });
    const [delivery] = (pushed.body as PushAnswer).delivered;
    const history = await http(`${bridge.url}/bridge/messages`, { token: bridge.token });
    const image = (history.body as MessagesAnswer).messages.find((m) => m.id === delivery?.msgId)?.images?.[0];
    expect(image?.id).toMatch(/^img-[0-9a-f]{16}$/);

    const res = await fetch(`${bridge.url}/bridge/images/${image?.id}`, {
      headers: { authorization: `Bearer ${bridge.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).toString('base64')).toBe(PNG);

    expect((await http(`${bridge.url}/bridge/images/${image?.id}`)).status).toBe(401);
    for (const id of ['..%2F..%2Ftoken', 'token', 'img-zzzz']) {
      const refused = await http(`${bridge.url}/bridge/images/${id}`, { token: bridge.token });
      expect(refused.status, id).toBe(400);
      expect(refused.body, id).toMatchObject({ error: expect.stringContaining('is no image id') });
    }
    const missing = await http(`${bridge.url}/bridge/images/img-0000000000000000`, { token: bridge.token });
    expect(missing.status).toBe(404);
  });
});
