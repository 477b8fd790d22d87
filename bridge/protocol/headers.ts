/** HTTP header names shared by the bridge and its clients; plain strings, so a client can import them without zod. */

/** The stdio shim marks its requests with this header (value `stdio`), so its agent shows as `stdio`. */
export const SHIM_HEADER = 'x-aiti-transport';
