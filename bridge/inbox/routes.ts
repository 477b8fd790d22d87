import { MAX_IMAGES_BODY_BYTES, MessagesQuery, PushBody, type PushAnswer } from '../protocol/index.js';
import type { AgentRegistry } from '../agents/registry.js';
import { DEFAULT_BODY_LIMIT, readBody, readQuery } from '../http/body.js';
import type { RouteSetup } from '../http/zones.js';
import { Conflict, NotFound, Unavailable } from '../errors.js';
import { deliver } from './delivery.js';
import type { Inbox } from './inbox.js';

/** The human's side of the inbox (README "HTTP surface"): push, history, status (mounted in the window zone). */
export const inboxRoutes: RouteSetup = (router, bridge) => {
  router.post('/bridge/push', async (ctx) => {
    const body = await readBody(ctx, PushBody, DEFAULT_BODY_LIMIT + MAX_IMAGES_BODY_BYTES);
    const targets = pushTargets(bridge, body.to ?? 'all');
    const images = await bridge.images.saveAll(body.images);
    const draft = {
      kind: body.kind ?? 'user_message',
      from: 'window' as const,
      text: body.text,
      ...(body.ref ? { ref: body.ref } : {}),
      ...(images.length ? { images } : {}),
    };
    const settled = await Promise.allSettled(targets.map((agentId) => deliver(bridge, agentId, draft)));
    const delivered = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = settled.flatMap((result, i) =>
      result.status === 'rejected' ? [{ agentId: targets[i], error: result.reason as Error }] : [],
    );
    if (failed.length) {
      bridge.log.error('push not stored:', failed[0]?.error);
      const stored = delivered.length
        ? `; it was stored for ${delivered.map((d) => d.agentId).join(', ')} — send it again to ${failed.map((f) => f.agentId).join(', ')} only`
        : ' — check the disk of the data dir and send it again';
      throw new Unavailable(
        `the message could not be stored for ${failed.map((f) => f.agentId).join(', ')} (${failed[0]?.error.message ?? ''})${stored}`,
      );
    }
    const answer: PushAnswer = { delivered };
    ctx.body = answer;
  });

  router.get('/bridge/messages', async (ctx) => {
    const query = readQuery(ctx, MessagesQuery);
    ctx.body = await bridge.inbox.history(query);
  });

  router.get('/bridge/inbox-status', (ctx) => {
    const answer = bridge.inbox.status();
    const listed = new Set(answer.agents.map((row) => row.agentId));
    for (const agent of bridge.agents.all()) {
      if (!listed.has(agent.agentId)) {
        answer.agents.push({ agentId: agent.agentId, counts: bridge.inbox.counts(agent.agentId) });
      }
    }
    ctx.body = answer;
  });
};

/**
 * "all" means every agent the bridge knows now (online, or offline within the TTL); a named agent must be known
 * to the registry or have an inbox, so a typo is not silently stored for nobody.
 */
function pushTargets(
  bridge: { agents: Pick<AgentRegistry, 'all'>; inbox: Pick<Inbox, 'agentIds'> },
  to: string,
): string[] {
  const known = bridge.agents.all().map((a) => a.agentId);
  if (to === 'all') {
    if (!known.length) {
      throw new Conflict('no agent is connected, so "all" reaches nobody; nothing was stored', 'to');
    }
    return known;
  }
  if (known.includes(to) || bridge.inbox.agentIds().includes(to)) return [to];
  throw new NotFound(
    `no agent "${to}"; known agents: ${[...new Set([...known, ...bridge.inbox.agentIds()])].join(', ') || 'none'} — or send to "all"`,
    'to',
  );
}
