import * as z from 'zod';
import { IsoTime } from './common.js';

/**
 * Away from the desk (README "Away from the desk"): pairing a device through the remote listener, the desk's
 * Devices panel, and agent tokens for agents on other machines.
 */

/**
 * The device's key (ECDSA P-256, JWK): the browser makes the pair and keeps the private half non-extractable in the
 * window's own origin (IndexedDB), so the device credential is something only that origin can use and nothing can
 * copy; the bridge keeps the public half.
 */
export const DevicePublicKey = z.object({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  x: z.string().min(40).max(48),
  y: z.string().min(40).max(48),
});
export type DevicePublicKey = z.infer<typeof DevicePublicKey>;

/** GET /bridge/pair/proof?nonce= (open on the remote listener): the bridge proves it holds the code before it is sent. */
export const PairProofQuery = z.object({ nonce: z.string().min(16).max(128) });

/** POST /bridge/pair/start (open on the remote listener): the one-time code from the QR link, a name, the key. */
export const PairStartBody = z.object({
  code: z.string().min(16).max(64),
  name: z.string().min(1).max(60),
  publicKey: DevicePublicKey,
});
export const PairStartAnswer = z.object({
  /** what the device polls with; it collects its device id and proof key once the desk approves */
  secret: z.string(),
  /** the same words the desk's approval card shows */
  phrase: z.string(),
  expiresAt: IsoTime,
});
export type PairStartAnswer = z.infer<typeof PairStartAnswer>;

/**
 * POST /bridge/pair/status: the device asks how its request stands; `approved` hands it, once, its device id and the
 * key the bridge will prove itself with (HMAC-SHA256, base64url), which the device keeps non-extractable.
 */
export const PairStatusBody = z.object({ secret: z.string().min(16).max(64) });
export const PairState = z.enum(['waiting', 'approved', 'refused', 'expired', 'collected']);
export const PairStatusAnswer = z.object({
  state: PairState,
  deviceId: z.string().optional(),
  proofKey: z.string().optional(),
});
export type PairStatusAnswer = z.infer<typeof PairStatusAnswer>;

/**
 * GET /bridge/device/challenge?id=&nonce= (open on the remote listener): the bridge proves it is the one the device
 * paired with (`proof`, HMAC of the nonce and id with the device's proof key) and gives a challenge to sign.
 */
export const DeviceChallengeQuery = z.object({
  id: z.string().regex(/^[0-9a-f]{16}$/, 'a device id is 16 hex digits'),
  nonce: z.string().min(16).max(128),
});
export const DeviceChallengeAnswer = z.object({ proof: z.string(), challenge: z.string() });

/** POST /bridge/device/session: the challenge signed with the device's key; answered with a session token. */
export const DeviceSessionBody = z.object({
  id: z.string().regex(/^[0-9a-f]{16}$/),
  challenge: z.string().min(16).max(64),
  /** ECDSA P-256 SHA-256 over `aiti-device-session\n<challenge>\n<id>`, raw r‖s (WebCrypto's form), base64url */
  signature: z.string().min(80).max(90),
});
export const DeviceSessionAnswer = z.object({ token: z.string() });

/** GET /bridge/whoami: which party the window is (the desk, with the human's token, or a paired device). */
export const WhoAmIAnswer = z.object({
  party: z.enum(['desk', 'device']),
  /** the device's own name */
  name: z.string().optional(),
});
export type WhoAmIAnswer = z.infer<typeof WhoAmIAnswer>;

export const DeviceRow = z.object({
  deviceId: z.string(),
  name: z.string(),
  pairedAt: IsoTime,
  lastUsedAt: IsoTime.optional(),
  /** streams and requests it has open now */
  connected: z.number().int().nonnegative(),
});
export type DeviceRow = z.infer<typeof DeviceRow>;

/** A device waiting for the desk's yes. */
export const PairingRow = z.object({
  requestId: z.string(),
  name: z.string(),
  phrase: z.string(),
  expiresAt: IsoTime,
});
export type PairingRow = z.infer<typeof PairingRow>;

export const AgentTokenRow = z.object({
  id: z.string(),
  /** the agent id the token speaks for */
  name: z.string(),
  createdAt: IsoTime,
  expiresAt: IsoTime.optional(),
  lastUsedAt: IsoTime.optional(),
  expired: z.boolean(),
});
export type AgentTokenRow = z.infer<typeof AgentTokenRow>;

/**
 * The desk's `devices` event (and GET /bridge/devices): paired devices, devices waiting for approval, agent tokens,
 * and where the remote listener is (absent without --remote). Sent only to the desk, never to a device.
 */
export const DevicesEvent = z.object({
  remote: z.object({ url: z.string() }).optional(),
  devices: z.array(DeviceRow),
  pairings: z.array(PairingRow),
  agentTokens: z.array(AgentTokenRow),
});
export type DevicesEvent = z.infer<typeof DevicesEvent>;

/** POST /bridge/pairing (the desk): a fresh one-time code, its link and the QR code of the link (SVG). */
export const PairingCodeAnswer = z.object({
  url: z.string(),
  qrSvg: z.string(),
  expiresAt: IsoTime,
});
export type PairingCodeAnswer = z.infer<typeof PairingCodeAnswer>;

export const PairingDecisionBody = z.object({ requestId: z.string().min(1).max(64) });
export const DeviceRevokeBody = z.object({ deviceId: z.string().min(1).max(64) });

export const AgentTokenCreateBody = z.object({
  name: z.string().min(1).max(64),
  /** `30d`, `12h`, `90m` or `never` (default 30d) */
  expires: z.string().max(16).optional(),
  /** the name is an agent the bridge knows, and the token is to speak for it (refused without) */
  takeOver: z.boolean().optional(),
});
export const AgentTokenCreated = z.object({
  token: z.string(),
  row: AgentTokenRow,
  /** what to paste into each MCP client on the agent's machine */
  setup: z.array(z.object({ client: z.string(), text: z.string() })),
});
export type AgentTokenCreated = z.infer<typeof AgentTokenCreated>;
export const AgentTokenRevokeBody = z.object({ name: z.string().min(1).max(64) });
