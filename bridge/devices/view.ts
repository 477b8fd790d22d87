import type { DevicesEvent } from '../protocol/index.js';
import type { AgentTokens } from '../agents/tokens.js';
import type { Devices } from './devices.js';
import type { CredentialLinks } from './links.js';
import { REQUEST_TTL_MS, type Pairings } from './pairing.js';

/** What the desk's `devices` event is composed from. */
export interface DevicesSources {
  devices: Pick<Devices, 'list'>;
  pairings: Pick<Pairings, 'pending'>;
  agentTokens: Pick<AgentTokens, 'list'>;
  credentialLinks: Pick<CredentialLinks, 'count'>;
  remoteUrl(): string | undefined;
}

export function devicesEvent(sources: DevicesSources, now = Date.now()): DevicesEvent {
  const remote = sources.remoteUrl();
  return {
    ...(remote ? { remote: { url: remote } } : {}),
    devices: sources.devices.list().map((d) => ({
      deviceId: d.id,
      name: d.name,
      pairedAt: d.pairedAt,
      ...(d.lastUsedAt ? { lastUsedAt: d.lastUsedAt } : {}),
      connected: sources.credentialLinks.count(`device:${d.id}`),
    })),
    pairings: sources.pairings.pending().map((r) => ({
      requestId: r.id,
      name: r.name,
      phrase: r.phrase,
      expiresAt: new Date(r.startedAt + REQUEST_TTL_MS).toISOString(),
    })),
    agentTokens: sources.agentTokens.list().map((t) => ({
      id: t.id,
      name: t.name,
      createdAt: t.createdAt,
      ...(t.expiresAt ? { expiresAt: t.expiresAt } : {}),
      ...(t.lastUsedAt ? { lastUsedAt: t.lastUsedAt } : {}),
      expired: t.expiresAt !== undefined && Date.parse(t.expiresAt) <= now,
    })),
  };
}
