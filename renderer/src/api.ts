import type { z } from 'zod';
import {
  ErrorBody,
  InboxStatusAnswer,
  MessagesAnswer,
  PushAnswer,
  QuickReplies,
  type AnswerBody,
  type PushBody,
} from '../../bridge/protocol/index.js';
import { deskApi, type DeskApi } from './device/desk-api.js';
import { deviceSignIn, UNPAIRED } from './device/device-api.js';
import type { DeviceKeys } from './device/device-auth.js';
import { sharedProver, type PeerProof } from './token-proof.js';

/**
 * How a call failed: not sent (nothing answers, or what answers is not the bridge), refused by the bridge with a
 * status, signed out (a device the desk revoked), or answered with a shape the window does not know.
 */
export type ApiFailure = 'unreachable' | 'impostor' | 'refused' | 'unpaired' | 'shape';

/**
 * A refused or failed call. `message` is for logs (English, with the path); the window says `failure` and `status`
 * in the human's language and shows `detail`, the bridge's own words, beside it as data (cards/refusal.ts).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly failure: ApiFailure = 'refused',
    readonly detail = '',
  ) {
    super(message);
  }
}

/**
 * The window's REST calls (README "HTTP surface", human side), each answer checked against the wire contract.
 * The token goes only to a peer that just proved it holds it (token-proof.ts): every call asks first.
 */
export interface Api {
  answer(body: AnswerBody): Promise<void>;
  push(body: PushBody): Promise<PushAnswer>;
  messages(query: { agentId?: string; before?: string; limit?: number }): Promise<MessagesAnswer>;
  inboxStatus(): Promise<InboxStatusAnswer>;
  allowOrigin(origin: string): Promise<void>;
  presence(away: boolean): Promise<void>;
  /** the human's quick replies, from the data dir */
  quickReplies(): Promise<QuickReplies>;
  /** replaces them whole; resolves once they are on disk */
  saveQuickReplies(list: QuickReplies): Promise<QuickReplies>;
  /** an image kept in the data dir, as a data: URL (the window's CSP takes data: images) */
  image(id: string): Promise<string>;
  /**
   * the role=ai stream's URL (EventSource cannot send headers: the token, or the device's session, goes in the
   * query): ask for it right after prove(), which on a device opens the session it carries
   */
  streamUrl(): string;
  /** whether what answers on the port holds the token (calls share a proof asked at the same time) */
  prove(): Promise<PeerProof>;
  /** what only the desk may do (pairing, devices, agent tokens): absent on a paired device */
  desk?: DeskApi;
}

/**
 * With the human's token (the desk), or on a paired device with its keys (device/device-auth.ts): there every
 * proof is a sign-in, the bridge proving itself first, and the calls carry the session it opened.
 */
export function createApi(base: string, credential: string | DeviceKeys): Api {
  const token = typeof credential === 'string' ? credential : undefined;
  const device = typeof credential === 'string' ? undefined : deviceSignIn(base, credential);
  const prove = device ? device.prove : sharedProver(base, token ?? '');
  const bearer = () => token ?? device?.session() ?? '';
  const auth = (): RequestInit => ({ credentials: 'omit', headers: { authorization: `Bearer ${bearer()}` } });
  async function call<T>(
    path: string,
    init: { body?: unknown; schema?: z.ZodType<T>; method?: 'PUT' } = {},
  ): Promise<T | undefined> {
    const proof = await prove();
    if (proof.kind === 'impostor')
      throw new ApiError(
        0,
        `${path.split('?')[0]} was not sent: what answers on the port is not the bridge (${proof.why})`,
        proof.why === UNPAIRED ? 'unpaired' : 'impostor',
        proof.why,
      );
    if (proof.kind === 'unreachable')
      throw new ApiError(
        0,
        `${path.split('?')[0]} was not sent: the bridge does not answer (${proof.why})`,
        'unreachable',
        proof.why,
      );
    const res = await fetch(new URL(path, base), {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      credentials: 'omit',
      headers: {
        authorization: `Bearer ${bearer()}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const parsed = ErrorBody.safeParse(json);
      const reason = parsed.success ? parsed.data.error : text.slice(0, 200) || res.statusText;
      const unpaired = !token && res.status === 401;
      throw new ApiError(
        res.status,
        unpaired ? UNPAIRED : `${path.split('?')[0]} answered ${res.status}: ${reason}`,
        unpaired ? 'unpaired' : 'refused',
        reason,
      );
    }
    if (!init.schema) return undefined;
    const checked = init.schema.safeParse(json);
    if (!checked.success)
      throw new ApiError(
        res.status,
        `${path} answered an unexpected shape: ${checked.error.message}`,
        'shape',
        checked.error.message,
      );
    return checked.data;
  }
  const required = <T>(value: T | undefined): T => {
    if (value === undefined) throw new ApiError(0, 'empty answer');
    return value;
  };

  return {
    answer: async (body) => void (await call('bridge/answer', { body })),
    push: async (body) => required(await call('bridge/push', { body, schema: PushAnswer })),
    messages: async (query) => {
      const params = new URLSearchParams();
      if (query.agentId) params.set('agentId', query.agentId);
      if (query.before) params.set('before', query.before);
      if (query.limit) params.set('limit', String(query.limit));
      return required(await call(`bridge/messages?${params}`, { schema: MessagesAnswer }));
    },
    inboxStatus: async () => required(await call('bridge/inbox-status', { schema: InboxStatusAnswer })),
    allowOrigin: async (origin) => void (await call('bridge/allow-origin', { body: { origin } })),
    presence: async (away) => void (await call('bridge/presence', { body: { away } })),
    quickReplies: async () => required(await call('bridge/quick-replies', { schema: QuickReplies })),
    saveQuickReplies: async (list) =>
      required(await call('bridge/quick-replies', { body: list, method: 'PUT', schema: QuickReplies })),
    image: async (id) => {
      // the token goes only to what proved it holds it, like every other call
      const proof = await prove();
      if (proof.kind !== 'proven') throw new ApiError(0, `image ${id} was not asked for: ${proof.why}`);
      const res = await fetch(new URL(`bridge/images/${encodeURIComponent(id)}`, base), auth());
      if (!res.ok) throw new ApiError(res.status, `image ${id} answered ${res.status}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return `data:${res.headers.get('content-type') ?? 'image/png'};base64,${btoa(binary)}`;
    },
    streamUrl: () => new URL(`bridge/sse?role=ai&token=${encodeURIComponent(bearer())}`, base).href,
    prove,
    ...(token ? { desk: deskApi(call) } : {}),
  };
}
