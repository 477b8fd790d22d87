import type { AgentClaims } from './agents/claims.js';
import type { AgentRegistry } from './agents/registry.js';
import type { AgentTokens } from './agents/tokens.js';
import type { Asks } from './asks/asks.js';
import type { BridgeConfig } from './config.js';
import type { DeviceSessions } from './devices/device-sessions.js';
import type { Devices } from './devices/devices.js';
import type { CredentialLinks } from './devices/links.js';
import type { Pairings } from './devices/pairing.js';
import type { LimitCounters } from './limits.js';
import type { Logger } from './log.js';
import type { HumanHub } from './window/hub.js';
import type { WindowFeed } from './window/feed.js';
import type { Inbox } from './inbox/inbox.js';
import type { ImageStore } from './images/store.js';
import type { Tarpit } from './http/tarpit.js';
import type { PageBuffers } from './pages/buffers.js';
import type { OriginRate } from './pages/origin-rate.js';
import type { PageEventBus } from './pages/events.js';
import type { PageRegistry } from './pages/registry.js';
import type { PageRequests } from './pages/requests.js';
import type { SessionStore } from './mcp/session-store.js';

/** The services of one bridge, created by createBridge and handed to every route and tool. */
export interface BridgeContext {
  config: BridgeConfig;
  /** `<dataDir>/aiti-bridge` */
  appDir: string;
  token: string;
  /** the agents' token on the MCP endpoint with --mcp-auth (`<appDir>/agent-token`); refused by window routes */
  agentToken: string;
  /** which agent ids were taken, by whom, and the hashes of their agentKeys */
  claims: AgentClaims;
  version: string;
  startedAt: number;
  log: Logger;
  pages: PageRegistry;
  requests: PageRequests;
  buffers: PageBuffers;
  pageEvents: PageEventBus;
  hub: HumanHub;
  /** coalesced pages and agents updates for the window */
  windowFeed: WindowFeed;
  /** the resource limits in force and their refusal counts (bridge_status) */
  limits: LimitCounters;
  /** how fast pages may be claimed, per origin */
  claimRate: OriginRate;
  /** how fast pages may send everything else (results, events, frames, stream opens), per origin */
  pageRate: OriginRate;
  /** where rate-limited page requests wait before their 429 */
  tarpit: Tarpit;
  agents: AgentRegistry;
  /** every agent's messages and the durable journal behind them */
  inbox: Inbox;
  /** open questions to the human, their countdowns, and the human's presence */
  asks: Asks;
  /** images pasted into answers and pushes, kept in the data dir */
  images: ImageStore;
  /** the Streamable HTTP sessions, kept so a client's session outlives a bridge restart */
  mcpSessions: SessionStore;
  /** the bridge's own origins (http://127.0.0.1:PORT …), known once it listens */
  ownOrigins: () => string[];
  /** agent tokens for agents on other machines, each bound to its agent id (agent-tokens.jsonl) */
  agentTokens: AgentTokens;
  /** devices paired with the desk (devices.json) */
  devices: Devices;
  /** how paired devices sign in: the bridge's proof, their signed challenge, their sessions (in memory) */
  deviceSessions: DeviceSessions;
  /** one-time pairing codes and the devices waiting for the desk's approval */
  pairings: Pairings;
  /** what each remote credential has open now, cut when it is revoked */
  credentialLinks: CredentialLinks;
  /** the remote listener's address as devices reach it (--remote-url, or its own), once it listens */
  remoteUrl: () => string | undefined;
}
