import type { DeliveryChannel, ImageRef, Message } from '../protocol/index.js';
import type { AgentRegistry } from '../agents/registry.js';
import type { Logger } from '../log.js';
import type { Inbox, MessageDraft } from './inbox.js';

/** how long a channel notification may take before the message is left to the inbox */
const CHANNEL_TIMEOUT_MS = 5000;

/**
 * What a delivery uses: the inbox it journals in first, the agents' live channels, the images a sampling request
 * carries, the log of a failed one.
 */
export interface DeliveryServices {
  inbox: Pick<Inbox, 'add' | 'markDelivered'>;
  agents: Pick<AgentRegistry, 'get'>;
  /** the images kept in the data dir, as MCP image content (the image store is one) */
  images: { readAll(refs: readonly ImageRef[] | undefined): Promise<Array<{ data: string; mimeType: string }>> };
  log: Logger;
}

export interface Delivery {
  agentId: string;
  via: DeliveryChannel;
  msgId: string;
  /** images the channel could not carry: they wait in the inbox, and the channel's text says so */
  imagesWaiting?: number;
}

type SamplingLink = (message: Message, images?: Array<{ data: string; mimeType: string }>) => Promise<void>;

/**
 * Whether a side channel that carried `carried` of the message's images gave the agent all of it, so the message
 * may count as `delivered`. An async answer never does: it must be in `aiti_inbox` (with its askId and question)
 * whatever else carried it, so it stays pending — announced by the notice — until the agent reads its inbox.
 */
function wholly(message: Message, carried: number): boolean {
  return message.kind !== 'user_answer' && carried >= (message.images?.length ?? 0);
}

/**
 * Pushes one message to one agent. It is ALWAYS journaled in the inbox first (durable before this resolves), then
 * handed to the best live channel the agent's client declared:
 * - `channel` (a notification shown in the conversation): awaited; text only, so images are announced as waiting
 *   in the inbox. With nothing left behind the message counts as `delivered` (the agent still acks it);
 * - `sampling` (sampling/createMessage): started, not awaited (a model call takes long); the text and the images
 *   go to the client's model, and the message becomes `delivered` when the client answers; if it fails it stays
 *   pending (so the inbox notice still shows it);
 * - otherwise it waits in the inbox, announced by the notice on the agent's next tool result.
 * An async answer stays pending in every case (see wholly()).
 */
export async function deliver(bridge: DeliveryServices, agentId: string, draft: MessageDraft): Promise<Delivery> {
  return handOver(bridge, await bridge.inbox.add(agentId, draft));
}

/** The live-channel half of deliver(), for a message already journaled in the inbox (an ask's answer). */
export async function handOver(bridge: DeliveryServices, message: Message): Promise<Delivery> {
  const { agentId } = message;
  const agent = bridge.agents.get(agentId);
  const links = agent ? [...agent.links.values()] : [];
  const done = { agentId, msgId: message.id };
  const images = message.images?.length ?? 0;

  for (const link of links) {
    const channel = link.channel;
    if (!channel) continue;
    try {
      await withTimeout(channel(message), CHANNEL_TIMEOUT_MS);
      if (wholly(message, 0)) await bridge.inbox.markDelivered(agentId, [message.id]);
      return { ...done, via: 'channel', ...(images ? { imagesWaiting: images } : {}) };
    } catch (error) {
      bridge.log.warn(`inbox: channel notification to ${agentId} failed (${(error as Error).message}); trying next`);
    }
  }

  const sampling = links.find((l) => l.sampling)?.sampling;
  if (sampling) {
    const content = await bridge.images.readAll(message.images);
    void sampleInBackground(bridge, sampling, message, content);
    const missing = images - content.length;
    return { ...done, via: 'sampling', ...(missing > 0 ? { imagesWaiting: missing } : {}) };
  }
  return { ...done, via: 'inbox' };
}

async function sampleInBackground(
  bridge: DeliveryServices,
  sampling: SamplingLink,
  message: Message,
  images: Array<{ data: string; mimeType: string }>,
): Promise<void> {
  try {
    await sampling(message, images);
    if (wholly(message, images.length)) await bridge.inbox.markDelivered(message.agentId, [message.id]);
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
