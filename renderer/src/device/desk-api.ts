import type { z } from 'zod';
import {
  AgentTokenCreated,
  DevicesEvent,
  PairingCodeAnswer,
  type AgentTokenCreated as Created,
  type DevicesEvent as Devices,
  type PairingCodeAnswer as PairingCode,
} from '../../../bridge/protocol/index.js';

/** How the window's REST calls go (api.ts): proven first, with the human's token, each answer checked. */
export type DeskCall = <T>(path: string, init?: { body?: unknown; schema?: z.ZodType<T> }) => Promise<T | undefined>;

/** What only the desk does (the desk zone): pair and revoke devices, make and revoke agent tokens. */
export interface DeskApi {
  devices(): Promise<Devices>;
  openPairing(): Promise<PairingCode>;
  approve(requestId: string): Promise<void>;
  refuse(requestId: string): Promise<void>;
  revokeDevice(deviceId: string): Promise<void>;
  createAgentToken(name: string, expires: string): Promise<Created>;
  revokeAgentToken(name: string): Promise<void>;
}

export function deskApi(call: DeskCall): DeskApi {
  const required = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('empty answer');
    return value;
  };
  return {
    devices: async () => required(await call('bridge/devices', { schema: DevicesEvent })),
    openPairing: async () => required(await call('bridge/pairing', { body: {}, schema: PairingCodeAnswer })),
    approve: async (requestId) => void (await call('bridge/pairing/approve', { body: { requestId } })),
    refuse: async (requestId) => void (await call('bridge/pairing/refuse', { body: { requestId } })),
    revokeDevice: async (deviceId) => void (await call('bridge/devices/revoke', { body: { deviceId } })),
    createAgentToken: async (name, expires) =>
      required(await call('bridge/agent-tokens', { body: { name, expires }, schema: AgentTokenCreated })),
    revokeAgentToken: async (name) => void (await call('bridge/agent-tokens/revoke', { body: { name } })),
  };
}
