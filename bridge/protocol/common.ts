import * as z from 'zod';

/** An ISO-8601 timestamp as sent on the wire. */
export const IsoTime = z.string().min(1).describe('ISO-8601 timestamp');

/** One character an `Id` may hold, and its longest length (the journal's replay reads ids by these too). */
export const ID_CHAR = /[A-Za-z0-9._:@-]/;
export const ID_MAX_LENGTH = 128;

/** Ids the bridge hands out or accepts: short, printable, no path separators. */
export const Id = z
  .string()
  .min(1)
  .max(ID_MAX_LENGTH)
  .regex(new RegExp(`^${ID_CHAR.source}+$`), 'only letters, digits and . _ : @ - are allowed');

export const PageId = Id.describe('page id from /bridge/claim, e.g. "p1"');
export const FrameId = Id.describe('frame id; "main" is the top document');
export const AgentId = Id.describe('agent id bound by aiti_hello');
export const MsgId = Id.describe('inbox message id');
export const AskId = Id.describe('ask id');
export const RequestId = Id.describe('page command request id');

/** The top document of a page is always this frame. */
export const MAIN_FRAME = 'main';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export const JsonValue: z.ZodType<Json> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonValue), z.record(z.string(), JsonValue)]),
);

export const ErrorBody = z.object({ error: z.string(), field: z.string().optional() });
export type ErrorBody = z.infer<typeof ErrorBody>;
