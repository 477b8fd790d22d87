import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { MessagesAnswer, PushAnswer } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText, type AgentTransportKind } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';

const ChannelNotification = z.object({
  method: z.literal('notifications/claude/channel'),
  params: z.object({ content: z.string(), meta: z.record(z.string(), z.string()).optional() }),
});

/** Claude Code's experimental capability: it shows these notifications in the conversation. */
const channelCapabilities = { experimental: { 'claude/channel': {} } };

async function pushByChannel(transport: AgentTransportKind) {
  const bridge = await startBridge();
  const agent = await connectAgent(bridge.url, {
    transport,
    clientName: 'claude-code',
    capabilities: channelCapabilities,
  });
  const shown: Array<z.infer<typeof ChannelNotification>['params']> = [];
  agent.setNotificationHandler(ChannelNotification, (notification) => {
    shown.push(notification.params);
  });
  await callTool(agent, 'aiti_hello');
  await waitFor(
    () => {
      const registered = bridge.context.agents.get('claude-code');
      return !!registered && bridge.context.agents.channels(registered).includes('channel');
    },
    10_000,
    'the channel link',
  );

  const pushed = await http(`${bridge.url}/bridge/push`, {
    token: bridge.token,
    body: { to: 'claude-code', text: 'the header is misaligned' },
  });
  expect(pushed.status).toBe(200);
  const [delivery] = (pushed.body as PushAnswer).delivered;
  expect(delivery).toMatchObject({ agentId: 'claude-code', via: 'channel' });

  await waitFor(() => shown.length === 1, 10_000, 'the channel notification');
  expect(shown[0]?.content).toContain('the header is misaligned');
  expect(shown[0]?.meta).toMatchObject({ msg_id: delivery?.msgId });

  // shown in the conversation: delivered, no notice, nothing pending; the agent still acks it
  const history = await http(`${bridge.url}/bridge/messages?agentId=claude-code`, { token: bridge.token });
  expect((history.body as MessagesAnswer).messages[0]).toMatchObject({ id: delivery?.msgId, status: 'delivered' });
  const read = await callTool(agent, 'aiti_inbox', { ack: [delivery?.msgId] });
  expect(read.structuredContent).toMatchObject({ messages: [], acked: [delivery?.msgId], queueSize: 0 });
  expect(resultText(read)).not.toContain('unread message');
}

describe('push by channel', () => {
  it('reaches a Streamable HTTP client that declared claude/channel as a notification', async () => {
    await pushByChannel('streamable');
  });

  it('reaches a client that declared claude/channel through the stdio shim', async () => {
    await pushByChannel('stdio');
  }, 30_000);
});
