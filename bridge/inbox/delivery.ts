import type { DeliveryChannel, Message } from '../protocol/index.js';
import type { AgentRegistry } from '../agents/registry.js';
import type { Logger } from '../log.js';
import type { Inbox, MessageDraft } from './inbox.js';

/** how long a channel notification may take before the message is left to the inbox */
const CHANNEL_TIMEOUT_MS = 5000;

/** What a delivery uses: the inbox it journals in first, the agents' live channels, the log of a failed one. */
export interface DeliveryServices {
  inbox: Pick<Inbox, 'add' | 'markDelivered'>;
  agents: Pick<AgentRegistry, 'get'>;
  log: Logger;
}

export interface Delivery {
  agentId: string;
  via: DeliveryChannel;
  msgId: string;
}

/**
 * Pushes one message to one agent. It is ALWAYS journaled in the inbox first (durable before this resolves), then
 * handed to the best live channel the agent's client declared:
 * - `channel` (a notification shown in the conversation): awaited; on success the message counts as `delivered`,
 *   since the agent has seen it; it still acks it with aiti_inbox;
 * - `sampling` (sampling/createMessage): started, not awaited (a model call takes long); the message becomes
 *   `delivered` when the client answers, and stays pending (so the inbox notice still shows it) if it fails;
 * - otherwise it waits in the inbox, announced by the notice on the agent's next tool result.
 */
export async function deliver(bridge: DeliveryServices, agentId: string, draft: MessageDraft): Promise<Delivery> {
  const message = await bridge.inbox.add(agentId, draft);
  const agent = bridge.agents.get(agentId);
  const links = agent ? [...agent.links.values()] : [];
  const done = { agentId, msgId: message.id };

  for (const link of links) {
    const channel = link.channel;
    if (!channel) continue;
    try {
      await withTimeout(channel(message), CHANNEL_TIMEOUT_MS);
      await bridge.inbox.markDelivered(agentId, [message.id]);
      return { ...done, via: 'channel' };
    } catch (error) {
      bridge.log.warn(`inbox: channel notification to ${agentId} failed (${(error as Error).message}); trying next`);
    }
  }

  const sampling = links.find((l) => l.sampling)?.sampling;
  if (sampling) {
    void sampleInBackground(bridge, sampling, message);
    return { ...done, via: 'sampling' };
  }
  return { ...done, via: 'inbox' };
}

async function sampleInBackground(
  bridge: DeliveryServices,
  sampling: (message: Message) => Promise<void>,
  message: Message,
): Promise<void> {
  try {
    await sampling(message);
    await bridge.inbox.markDelivered(message.agentId, [message.id]);
  } catch (error) {
    bridge.log.warn(
      `inbox: sampling to ${message.agentId} failed (${(error as Error).message}); message ${message.id} stays in the inbox`,
    );
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
