import { PageCommands } from '../../protocol/index.js';
import { isConnected } from '../../pages/registry.js';
import { resolvePage } from '../resolve-page.js';
import { checkPageArgs } from '../page-command.js';
import { defineTool, toolInput } from '../tool.js';
import { pageId } from './args.js';

export const userNotify = defineTool({
  name: 'user_notify',
  title: 'Notify the human',
  description:
    'Tells the human something without waiting: a desktop notification and a line in the window (and a browser notification on the page, when named or bound).',
  // User.notify's own arguments: a body the page would refuse is refused here, before the window shows it
  inputSchema: toolInput('user_notify', PageCommands['User.notify'].extend({ pageId })),
  annotations: { readOnlyHint: true, openWorldHint: true },
  handle: async ({ pageId, ...args }, call) => {
    const { bridge, agent } = call;
    const notice = checkPageArgs('User.notify', args);
    const bound = agent.pageId ? bridge.pages.get(agent.pageId) : undefined;
    const page = pageId ? resolvePage(call, pageId) : bound && isConnected(bound) ? bound : undefined;
    const title = args.title !== undefined ? { title: args.title } : {};
    // on record in History (and over a reload), as the human's, never as a message the agent must read
    await bridge.inbox.add(
      agent.agentId,
      { kind: 'agent_note', from: 'agent', text: args.body, payload: { notify: true, title: args.title ?? null } },
      'consumed',
    );
    bridge.hub.broadcast('notify', {
      agentId: agent.agentId,
      body: args.body,
      ...title,
      ...(page ? { pageId: page.pageId } : {}),
    });
    if (page) {
      // Not awaited: a notification never holds the agent; a page that cannot show it only loses the copy there.
      bridge.requests
        .send(page, 'User.notify', notice)
        .catch((error: Error) =>
          bridge.log.child('asks').warn(`User.notify on ${page.pageId} failed: ${error.message}`),
        );
    }
    return {
      structured: { notified: true, windows: bridge.hub.watchers, ...(page ? { pageId: page.pageId } : {}) },
      summary: `the human was notified${page ? ` (also on page ${page.pageId})` : ''}`,
      text: '',
    };
  },
});
