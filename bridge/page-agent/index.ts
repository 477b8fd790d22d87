import type { Json } from '../protocol/common.js';
import type { CommandEvent } from '../protocol/page.js';
import { NO_REPLY, runCommand, type AgentInfo, type Outcome } from './commands/index.js';
import { departingTo, watchDeparture } from './watch/departure.js';
import { NAVIGATION_COMMANDS } from '../protocol/commands.js';
import { claimPage, Connection } from './link/connection.js';
import { watchCsp } from './link/csp.js';
import { findBridge, isTopWindow } from './link/env.js';
import { announceToChildren, frameSession, onParentReady, serveChildFrames } from './link/frames.js';
import { detectFrameworks, redetectWhileRendering } from './watch/frameworks.js';
import { setRefFrame } from './dom/refs.js';
import { noteListeners } from './act/listeners.js';
import { watchAltClick } from './human/open-file.js';
import { toast } from './human/overlay.js';
import { Batcher } from './watch/batch.js';
import { watchConsole } from './watch/console.js';
import { watchErrors } from './watch/errors.js';
import { watchNetwork } from './watch/network.js';

/**
 * The page agent: loaded with one script tag (or the Vite plugin, or the bookmarklet), it connects this page to
 * the AITI bridge, runs the agent's commands, and reports console, errors and network traffic.
 */
declare global {
  interface Window {
    __aitiPageAgent?: { version: 1; pageId(): string | undefined };
  }
}

function start(): void {
  if (window.__aitiPageAgent) return; // loaded twice (script tag and bookmarklet): one agent is enough
  const endpoint = findBridge(document.currentScript);
  const cspBlocked = watchCsp(endpoint.base);
  // before the app's code adds its listeners: a click can then tell whether anything heard it
  noteListeners();
  let frameworks = detectFrameworks();
  const batcher = new Batcher();
  const agent: AgentInfo = {
    frameworks: () => {
      redetect();
      return frameworks;
    },
    drainWatch: () => batcher.drain(),
    ...(endpoint.root ? { root: endpoint.root } : {}),
  };

  watchConsole(batcher, endpoint.root);
  watchErrors(batcher, endpoint.root);
  watchNetwork(batcher, endpoint.base);

  const top = isTopWindow();
  const asFrame = top ? undefined : frameSession(endpoint, () => frameworks);
  // what the bridge was last told, by a claim it answered: a change seen while a claim was on its way is sent after
  let told: string | undefined;
  let claiming = false;
  const claimWith = async () => {
    const sent = frameworks;
    claiming = true;
    try {
      const session = await claimPage(endpoint, sent);
      told = sent.join();
      // once the connection holds the session: a refused claim is not tried again from here (no loop while the
      // bridge is down; the connection claims again when it reconnects)
      setTimeout(redetect, 0);
      return session;
    } finally {
      claiming = false;
    }
  };
  const obtain = asFrame ?? claimWith;
  // A document that is being replaced stops taking commands once its running ones have answered, so the
  // bridge holds the next command for the new document instead of sending it here to be lost in the unload.
  let running = 0;
  let leaving = false;
  // Declared before anything that may call into it (watchDeparture can fire at once on a page that is leaving).
  const connection = new Connection(
    endpoint,
    async () => {
      if (cspBlocked()) {
        connection.stop(); // the console said what to allow; retrying cannot succeed until the page changes
        throw new Error('blocked by the page CSP');
      }
      try {
        return await obtain();
      } finally {
        // the CSP report of a refused request arrives as an event: give it a turn before deciding to retry
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (cspBlocked()) connection.stop();
      }
    },
    () => frameworks,
    (command) => onCommand(command),
  );
  function leaveWhenIdle(): void {
    if (leaving && running === 0) connection.stop();
  }
  function onCommand(command: CommandEvent): void {
    running++;
    void (async () => {
      try {
        const away = departingTo();
        const outcome: Outcome =
          away && !NAVIGATION_COMMANDS.has(command.cmd)
            ? {
                ok: false,
                error: `${command.cmd} was not run: the page is leaving for ${away}; call again with this pageId once the new document has loaded`,
              }
            : await runCommand(command.cmd, command.args, agent);
        if (outcome !== NO_REPLY)
          await connection
            .postResult(command.requestId, outcome, {
              leaving: Boolean(departingTo()) || NAVIGATION_COMMANDS.has(command.cmd),
            })
            .catch(() => undefined);
      } finally {
        running--;
        leaveWhenIdle();
      }
    })();
  }
  watchDeparture(
    (url) => {
      leaving = true;
      // the bridge learns where the tab went: a call to this page once it is gone can name the page it became
      if (top && connection.session)
        void connection.postEvent('navigate', { url, leaving: true }, { keepalive: true }).catch(() => undefined);
      leaveWhenIdle();
    },
    () => {
      leaving = false;
      connection.start();
    },
  );
  window.__aitiPageAgent = { version: 1, pageId: () => connection.session?.pageId };

  let warnedHeld = false;
  connection.onSession((session) => {
    setRefFrame(session.frameId);
    announceToChildren();
    batcher.attach((type, payload: Json, keepalive) => connection.postEvent(type, payload, { keepalive }));
    if (!session.operable && !warnedHeld && top) {
      warnedHeld = true;
      toast(
        `This page's origin (${location.origin}) waits for approval in the AITI window before an agent can drive it.`,
        {
          title: 'AITI',
          ms: 10_000,
        },
      );
    }
  });
  serveChildFrames(connection);
  if (asFrame)
    onParentReady(() => {
      // this frame had become a page of its own: reconnect through the parent, as a frame of its page
      if (!asFrame.rejoin()) return;
      connection.stop();
      connection.start();
    });
  watchAltClick(agent.root, (payload) => connection.postEvent('open_file', payload));
  connection.start();

  // Apps render after the agent loads: detect again once they have, and tell the bridge if it changed (compared
  // with what it was told, not with the last detection: one made while the first claim was on its way counts).
  function redetect(): void {
    frameworks = detectFrameworks();
    if (!top || claiming || !connection.session || frameworks.join() === told) return;
    void claimWith().catch(() => undefined);
  }
  if (document.readyState === 'complete') setTimeout(redetect, 500);
  else window.addEventListener('load', () => setTimeout(redetect, 500));
  setTimeout(redetect, 3000);
  redetectWhileRendering(redetect);

  // Same-document navigations: the bridge keeps the page, and learns the new URL.
  const announce = () => {
    if (connection.session) void connection.postEvent('navigate', { url: location.href }).catch(() => undefined);
  };
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = history[method];
    history[method] = function (this: History, ...args: Parameters<History['pushState']>) {
      const result = original.apply(this, args);
      announce();
      return result;
    };
  }
  window.addEventListener('popstate', announce);
  window.addEventListener('hashchange', announce);

  window.addEventListener('pagehide', () => {
    void batcher.flush(true);
    connection.stop();
  });
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    leaving = false; // back from the back/forward cache
    connection.start();
  });
}

start();
