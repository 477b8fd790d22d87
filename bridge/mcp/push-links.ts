import type { ClientCapabilities, Server, Transport } from '@modelcontextprotocol/server';
import type { AgentLink } from '../agents/registry.js';
import type { Message } from '../protocol/index.js';

/**
 * What a human push says, as the agent should read it. `carried` is how many of its images travel with this text;
 * the others are announced as waiting in the inbox, so the agent knows there is more than the text.
 */
export function pushText(message: Message, carried = 0): string {
  const body = message.text ?? JSON.stringify(message.payload ?? null);
  const who = message.from === 'window' ? 'the human (AITI window)' : `the ${message.from}`;
  const images = message.images?.length ?? 0;
  const waiting = images - carried;
  const pictures = [
    carried > 0 && `${plural(carried, 'image')} attached below`,
    waiting > 0 && `${plural(waiting, 'image')} came with it and wait in your inbox: call aiti_inbox to see them`,
  ].filter(Boolean);
  const tail = pictures.length ? `\n(${pictures.join('; ')})` : '';
  return `Message ${message.id} from ${who}: ${body}${tail}\n(acknowledge with aiti_inbox {"ack":["${message.id}"]})`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** True when the client declared Claude Code's experimental `claude/channel` capability. */
export function declaresChannel(capabilities: ClientCapabilities | undefined): boolean {
  const experimental = capabilities?.experimental;
  return Boolean(experimental && typeof experimental === 'object' && 'claude/channel' in experimental);
}

/**
 * The push paths of a session whose server→client stream is open: `claude/channel` notifications when the
 * client declared them, sampling/createMessage when it declared sampling. Both travel on the GET stream. A
 * channel notification is text only (its images are announced as waiting in the inbox); a sampling message
 * carries the images as image content after the text.
 */
export function pushLinks(
  server: Server,
  transport: Transport,
  capabilities: ClientCapabilities | undefined,
): Pick<AgentLink, 'channel' | 'sampling'> {
  const links: Pick<AgentLink, 'channel' | 'sampling'> = {};
  if (declaresChannel(capabilities)) {
    links.channel = (message) =>
      transport.send({
        jsonrpc: '2.0',
        method: 'notifications/claude/channel',
        params: {
          content: pushText(message),
          // Claude Code puts meta on the <channel> tag (its source attribute is the server's name): string values, identifier keys.
          meta: { kind: message.kind, from: message.from, msg_id: message.id },
        },
      });
  }
  if (capabilities?.sampling) {
    links.sampling = async (message, images = []) => {
      await server.createMessage(
        {
          messages: [
            { role: 'user', content: { type: 'text', text: pushText(message, images.length) } },
            ...images.map((image) => ({ role: 'user' as const, content: { type: 'image' as const, ...image } })),
          ],
          systemPrompt: 'A message from the human reached you through AITI Bridge. Read it and say what you will do.',
          maxTokens: 1024,
        },
        { timeout: 120_000 },
      );
    };
  }
  return links;
}
