import { join } from 'node:path';
import type { AgentRegistry } from '../agents/registry.js';
import type { Logger } from '../log.js';
import type { HumanHub } from '../window/hub.js';
import { broadcastAgents } from '../window/state.js';
import type { WindowFeed } from '../window/feed.js';
import type { AskLines } from '../journal/lines.js';
import { JournalReplay } from '../journal/replay.js';
import { JournalWriter } from '../journal/writer.js';
import { Inbox } from './inbox.js';
import { subscribePageEvents, type PageEventSources } from './page-events.js';

/**
 * Opens the journal under `<appDir>/sessions` (call before listening): its writer, and one replay that feeds the
 * message lines to a fresh inbox and the ask lines to `asks`. Returns the inbox, the writer (the asks' port on the
 * journal: AskJournal) and the image ids the journal names (absent when a file of it could not be read).
 */
export function openInbox(options: {
  appDir: string;
  version: string;
  log: Logger;
  now?: () => Date;
  asks?: AskLines;
}): { inbox: Inbox; journal: JournalWriter; images?: ReadonlySet<string> } {
  const dir = join(options.appDir, 'sessions');
  const log = options.log.child('journal');
  const journal = new JournalWriter({
    dir,
    bridgeVersion: options.version,
    log,
    ...(options.now ? { now: options.now } : {}),
  });
  const inbox = new Inbox(journal, options.now);
  const replay = new JournalReplay({ dir, log });
  inbox.replay((messages) => replay.run({ messages, ...(options.asks ? { asks: options.asks } : {}) }));
  // the images the journal refers to, when every file of it could be read
  return { inbox, journal, ...(replay.complete ? { images: replay.images } : {}) };
}

/** Tells the window about inbox changes and turns subscribed page events into messages. Returns the stop function. */
export function watchInbox(
  bridge: PageEventSources & {
    inbox: Pick<Inbox, 'onEvent' | 'onStorage'>;
    hub: Pick<HumanHub, 'broadcast'>;
    agents: Pick<AgentRegistry, 'get'>;
    windowFeed: Pick<WindowFeed, 'agentsChanged'>;
  },
): () => void {
  const off = bridge.inbox.onEvent((event) => {
    if (event.type === 'renamed') {
      // the window merges messages by id: the moved ones now read under their new agent
      for (const message of event.messages) bridge.hub.broadcast('message', message);
      return broadcastAgents(bridge);
    }
    if (event.type === 'message') bridge.hub.broadcast('message', event.message);
    else
      bridge.hub.broadcast('message_status', {
        id: event.id,
        agentId: event.agentId,
        status: event.status,
        at: event.at,
      });
    if (bridge.agents.get(event.type === 'message' ? event.message.agentId : event.agentId)) broadcastAgents(bridge);
  });
  const stopPageEvents = subscribePageEvents(bridge);
  // a disk problem is said in the window at once (and in bridge_status), and so is its end
  const offStorage = bridge.inbox.onStorage((health) =>
    bridge.hub.broadcast('notify', {
      agentId: 'bridge',
      title: health.ok ? 'The data dir takes writes again' : 'The bridge cannot write to its data dir',
      body: health.problem ?? 'Pushes, answers and reads are kept on disk again.',
    }),
  );
  return () => {
    off();
    offStorage();
    stopPageEvents();
  };
}
