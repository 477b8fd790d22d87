import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { AgentLink } from '../agents/registry.js';
import type { Message } from '../protocol/index.js';

/** What a human push says, as the agent should read it. */
export function pushText(message: Message): string {
  const body = message.text ?? JSON.stringify(message.payload ?? null);
  const who = message.from === 'window' ? 'the human (AITI window)' : `the ${message.from}`;
  return `Message ${message.id} from ${who}: ${body}\n(acknowledge with aiti_inbox {"ack":["${message.id}"]})`;
}

/** True when the client declared Claude Code's experimental `claude/channel` capability. */
export function declaresChannel(capabilities: ClientCapabilities | undefined): boolean {
  const experimental = capabilities?.experimental;
  return Boolean(experimental && typeof experimental === 'object' && 'claude/channel' in experimental);
}

/**
 * The push paths of a session whose server→client stream is open: `claude/channel` notifications when the
 * client declared them, sampling/createMessage when it declared sampling. Both travel on the GET stream.
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
    links.sampling = async (message) => {
      await server.createMessage(
        {
          messages: [{ role: 'user', content: { type: 'text', text: pushText(message) } }],
          systemPrompt: 'A message from the human reached you through AITI Bridge. Read it and say what you will do.',
          maxTokens: 1024,
        },
        { timeout: 120_000 },
      );
    };
  }
  return links;
}
