import { createServer } from 'node:http';
import { join } from 'node:path';
import { defaultConfig, type BridgeConfig } from './config.js';
import type { BridgeContext } from './context.js';
import { createApp } from './http/app.js';
import { reachFromElsewhere } from './http/peer.js';
import { listenUnix, type UnixListener } from './http/unix-listener.js';
import { isLoopbackHostname } from './loopback.js';
import { HumanHub } from './window/hub.js';
import { openInbox, watchInbox } from './inbox/setup.js';
import { agentRows, broadcastAgents, composeState } from './window/state.js';
import { WindowFeed } from './window/feed.js';
import { LimitCounters, resolveLimits } from './limits.js';
import { Tarpit } from './http/tarpit.js';
import { guardConnections } from './http/slow-readers.js';
import { SessionStore } from './mcp/session-store.js';
import { CLAIMS, OriginRate, PAGE_REQUESTS } from './pages/origin-rate.js';
import { AgentClaims } from './agents/claims.js';
import { AgentRegistry } from './agents/registry.js';
import { AgentTokens } from './agents/tokens.js';
import { DeviceSessions } from './devices/device-sessions.js';
import { Devices } from './devices/devices.js';
import { cutOnExpiry } from './agents/token-expiry.js';
import { CredentialLinks } from './devices/links.js';
import { Pairings } from './devices/pairing.js';
import { devicesEvent } from './devices/view.js';
import { createRemoteApp, listenRemote, remoteServer, type RemoteListener } from './remote/listener.js';
import { AskNotifier } from './remote/notify.js';
import { Asks } from './asks/asks.js';
import { journalLedger } from './asks/record.js';
import { ReplayedAsks } from './asks/replayed.js';
import { restoreAsks } from './asks/restore.js';
import { systemClock } from './asks/countdown.js';
import { trackAnswers } from './shutdown.js';
import { ImageStore } from './images/store.js';
import { createLogger, type Logger } from './log.js';
import { mountRoutes } from './routes.js';
import { PageBuffers } from './pages/buffers.js';
import { PageEventBus } from './pages/events.js';
import { PageRegistry } from './pages/registry.js';
import { PageRequests } from './pages/requests.js';
import { watchPages } from './pages/watch.js';
import { watchOpenFile } from './pages/open-file.js';
import { ResultSockets } from './pages/result-socket-routes.js';
import { checkWritable, StartupError } from './startup-error.js';
import { RUNNING_FILE, writeRunningRecord } from './locate.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { holdPort, type HeldPort } from './port.js';
import { collectLeftovers, privateDir } from './private-files.js';
import { loadOrCreateToken } from './token.js';
import { bridgeVersion } from './version.js';

export interface Bridge {
  /** e.g. http://127.0.0.1:8777 */
  url: string;
  /** the human window, with its token in the fragment */
  uiUrl: string;
  port: number;
  token: string;
  /** the remote listener (--remote): where devices and agents elsewhere reach it, and its port */
  remote?: { url: string; port: number };
  context: BridgeContext;
  close(): Promise<void>;
}

export { StartupError };

/** What `aiti-bridge` takes before it loads the server (cli.ts): the data dir's lock and the port. */
export interface Taken {
  lock?: DataDirLock;
  port?: HeldPort;
}

/**
 * Starts a bridge. Nothing happens at import time; many bridges can run in one process (tests use port 0), one per
 * data dir: the data dir is locked before anything in it is read or written (data-dir-lock.ts), then the port is
 * taken (port.ts), then the journal replayed; connections that arrive meanwhile wait for their answer.
 */
export async function createBridge(overrides: Partial<BridgeConfig> = {}, taken: Taken = {}): Promise<Bridge> {
  const config: BridgeConfig = { ...defaultConfig(), ...overrides };
  const appDir = join(config.dataDir, 'aiti-bridge');
  let lock = taken.lock;
  let port = taken.port;
  try {
    lock ??= await lockDataDir(appDir, lockHolder());
    port ??= await holdPort(config.host, config.port);
    return await start(config, appDir, lock, port);
  } catch (error) {
    await port?.close();
    await lock?.release();
    throw error;
  }
}

/** What this process says of itself to a second bridge that tries its data dir. */
export function lockHolder(): { pid: number; version: string; startedAt: string } {
  return { pid: process.pid, version: bridgeVersion(), startedAt: new Date().toISOString() };
}

async function start(config: BridgeConfig, appDir: string, lock: DataDirLock, held: HeldPort): Promise<Bridge> {
  const log = createLogger('aiti');
  let openDir: string | undefined;
  try {
    // 0700 whatever the umask, and whatever an older bridge left: tokens, journals and agent ids live here
    openDir = privateDir(appDir);
  } catch (error) {
    throw new StartupError(
      `cannot create the data dir "${appDir}": ${(error as Error).message}; pick another with --data-dir or AITI_BRIDGE_DATA_DIR`,
    );
  }
  const full = checkWritable(appDir);
  if (full) log.warn(full);
  if (openDir) log.warn(`${openDir}; other users of this machine may read what is in it`);
  let token: string;
  let agentToken: string;
  try {
    token = await loadOrCreateToken(appDir, config.token);
    agentToken = await loadOrCreateToken(appDir, undefined, 'agent-token');
  } catch (error) {
    throw new StartupError((error as Error).message);
  }
  let origins: string[] = [];
  const limits = new LimitCounters(resolveLimits(config.limits));
  const pages = new PageRegistry({ ttlMs: config.ttlMs, refuseLegacy: config.refuseLegacy, appDir, limits });
  const hub = new HumanHub(
    () => composeState(context),
    () => devicesEvent(context),
  );
  let devices: Devices;
  try {
    devices = new Devices(join(appDir, 'devices.json'));
  } catch (error) {
    throw new StartupError((error as Error).message);
  }
  const agentTokens = new AgentTokens(join(appDir, 'agent-tokens.jsonl'));
  let remote: RemoteListener | undefined;
  // replays the journal before the bridge listens: message lines to the inbox, ask lines to the asks
  const foundAsks = new ReplayedAsks();
  const { inbox, journal, images: referenced } = openInbox({ appDir, version: bridgeVersion(), log, asks: foundAsks });
  const agents = new AgentRegistry(config.ttlMs);
  const images = new ImageStore(appDir);
  await collectAtStart(appDir, images, referenced, log);
  // an async answer reaches a sampling agent with its images
  const ledger = { journal, inbox, agents, images, log };
  const asks = new Asks(
    { broadcast: (event, data) => context.hub.broadcast(event, data) },
    systemClock,
    journalLedger(ledger),
    limits,
  );
  const context: BridgeContext = {
    config,
    appDir,
    token,
    agentToken,
    claims: new AgentClaims(join(appDir, 'agent-ids.jsonl'), log.child('agents')),
    version: bridgeVersion(),
    inbox,
    startedAt: Date.now(),
    log,
    pages,
    requests: new PageRequests(pages, config.commandTimeoutMs),
    buffers: new PageBuffers(limits),
    pageEvents: new PageEventBus(),
    hub,
    windowFeed: new WindowFeed({
      hub,
      pages,
      agents: () => agentRows(context),
      coalesceMs: limits.limits.windowCoalesceMs,
    }),
    limits,
    claimRate: new OriginRate({ counters: limits, kind: CLAIMS, isOperable: (o) => pages.isOperableOrigin(o) }),
    pageRate: new OriginRate({ counters: limits, kind: PAGE_REQUESTS, isOperable: (o) => pages.isOperableOrigin(o) }),
    tarpit: new Tarpit(limits),
    agents,
    asks,
    images,
    mcpSessions: new SessionStore(join(appDir, 'mcp-sessions.jsonl')),
    ownOrigins: () => origins,
    agentTokens,
    devices,
    deviceSessions: new DeviceSessions(devices),
    pairings: new Pairings({ devices, onChange: () => deskChanged() }),
    credentialLinks: new CredentialLinks(),
    remoteUrl: () => remote?.url,
  };
  const deskChanged = () => hub.broadcastToDesk('devices', devicesEvent(context));
  // a revoked credential loses what it has open at once, not at its next request
  devices.onRevoke((device) => context.credentialLinks.cut(`device:${device.id}`));
  agentTokens.onRevoke((record) => context.credentialLinks.cut(`agent:${record.id}`));
  // an expired token loses what it has open, as a revoked one does
  const tokenExpiry = cutOnExpiry(agentTokens, (record) => {
    context.credentialLinks.cut(`agent:${record.id}`);
    deskChanged();
  });
  devices.onChange(deskChanged);
  agentTokens.onChange(deskChanged);
  agentTokens.watch();
  watchPages(context);
  watchOpenFile(context);
  const stopInbox = watchInbox(context);
  context.agents.onChange(() => broadcastAgents(context));
  // asks that were open when the bridge stopped: shown again (async) or ended "the bridge restarted" (sync)
  await restoreAsks({ asks, found: foundAsks, ledger, log });

  const app = createApp(context, mountRoutes(context));
  const handler = app.callback();
  const server = createServer(handler);
  server.keepAliveTimeout = 65_000;
  const connections = guardConnections(limits);
  connections.watch(server);
  const resultSockets = new ResultSockets(context);
  server.on('upgrade', resultSockets.upgrade);
  const answers = [trackAnswers(server)];
  // made (TLS files read) before anything listens: a bad --tls-cert stops the bridge with nothing opened
  const remoteSide = config.remote
    ? remoteServer(context, createRemoteApp(context, mountRoutes(context, 'remote')).callback())
    : undefined;
  if (remoteSide) connections.watch(remoteSide.server, 'remote');
  // the connections held while the bridge started are served now, and every later one
  held.adopt(server);
  let unix: UnixListener | undefined;
  if (config.socket) {
    try {
      unix = await listenUnix(config.socket, handler, resultSockets.upgrade);
    } catch (error) {
      server.closeAllConnections();
      throw new StartupError((error as Error).message);
    }
    connections.watch(unix.server, 'socket');
    answers.push(trackAnswers(unix.server));
  }
  if (remoteSide) {
    try {
      remote = await listenRemote(context, remoteSide);
    } catch (error) {
      server.closeAllConnections();
      await unix?.close();
      throw error;
    }
    answers.push(trackAnswers(remote.server));
  }
  const port = held.address().port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
  origins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`, url];
  lock.listening(url);
  if (!isLoopbackHostname(config.host))
    log.warn(
      `listening on ${config.host}, but only programs on this machine are served (other machines get 403, whatever their headers say); ${reachFromElsewhere(port)}`,
    );
  const notifier = config.notify
    ? new AskNotifier({
        topic: config.notify,
        ...(config.notifyToken ? { token: config.notifyToken } : {}),
        detail: config.notifyDetail,
        afterMs: config.notifyAfterMs,
        openAsks: () => context.asks.views(),
        // never the token: whoever opens the link pairs, or already holds a device
        windowUrl: () => `${remote?.url ?? url}/aiti/ui/`,
        log: log.child('notify'),
      })
    : undefined;
  const stopNotifier = notifier ? hub.subscribe(notifier.onEvent) : undefined;
  // where it listens, for the Vite plugin, the shim, `call` and `agent-token` (bridge/locate.ts)
  let forgetRecord = (): void => undefined;
  try {
    forgetRecord = await writeRunningRecord(config.dataDir, {
      pid: process.pid,
      url,
      ...(remote ? { remote: { url: remote.url, port: remote.port } } : {}),
      version: context.version,
      startedAt: new Date(context.startedAt).toISOString(),
    });
  } catch (error) {
    log.warn(
      `cannot write ${RUNNING_FILE} in the data dir (${(error as Error).message}): tools that look for this bridge need its URL (AITI_BRIDGE_URL)`,
    );
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    uiUrl: `${url}/aiti/ui/#token=${encodeURIComponent(token)}`,
    port,
    token,
    ...(remote ? { remote: { url: remote.url, port: remote.port } } : {}),
    context,
    close: () =>
      (closing ??= (async () => {
        // Every open ask answers `cancelled` (with the reason) and every waiting page command fails, and those
        // answers reach their callers before the sockets close: no agent is left waiting on a dead stream.
        // sessions still open now are kept: their clients find them again when the bridge is back
        context.mcpSessions.stop();
        try {
          forgetRecord();
        } catch (error) {
          log.warn(`cannot remove ${RUNNING_FILE} from the data dir: ${(error as Error).message}`);
        }
        const asksClosed = context.asks.close();
        context.requests.close();
        context.tarpit.close();
        connections.close();
        resultSockets.close();
        const closed = Promise.all([held.close(), new Promise<void>((resolve) => server.close(() => resolve()))]);
        const remoteClosed = remote ? new Promise<void>((resolve) => remote?.server.close(() => resolve())) : undefined;
        server.closeIdleConnections();
        unix?.server.closeIdleConnections();
        remote?.server.closeIdleConnections();
        await Promise.all(answers.map((owed) => owed.settled()));
        context.windowFeed.close();
        context.hub.close();
        pages.close();
        context.agents.close();
        server.closeAllConnections();
        remote?.server.closeAllConnections();
        stopNotifier?.();
        await Promise.all([closed, remoteClosed, unix?.close(), notifier?.close()]);
        // no request is left to start or bind a session: the lines asked for are written before the data dir is freed
        await context.mcpSessions.close();
        await agentTokens.close();
        tokenExpiry.close();
        await devices.close();
        await asksClosed;
        stopInbox();
        await context.inbox.close();
        // the last step: a bridge started on this data dir after close() resolves finds it free
        await lock.release();
      })()),
  };
}

/**
 * What a killed bridge or command left behind, collected before anything is served (the lock is held: nothing of
 * ours is in flight): temporary files of ours in the data dir, and images no journal line refers to.
 */
async function collectAtStart(
  appDir: string,
  images: ImageStore,
  referenced: ReadonlySet<string> | undefined,
  log: Logger,
): Promise<void> {
  const removed = await collectLeftovers(appDir);
  if (removed.length)
    log.info(`removed ${removed.length} temporary file(s) a stopped process left: ${removed.join(', ')}`);
  if (!referenced) return log.warn('images: a journal file could not be read, so no image is collected this time');
  const orphans = await images.collect(referenced);
  if (orphans) log.info(`removed ${orphans} image(s) no message refers to`);
}
