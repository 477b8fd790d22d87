/** HTTP header names shared by the bridge and its clients; plain strings, so a client can import them without zod. */

/** The stdio shim marks its requests with this header (value `stdio`), so its agent shows as `stdio`. */
export const SHIM_HEADER = 'x-aiti-transport';

/**
 * A 2026-07-28 request made on behalf of a 2025-era session of the same client (the stdio shim keeps one for its
 * client whatever revision that client speaks) names that session's id here: it speaks for the session's agent.
 */
export const SESSION_HEADER = 'x-aiti-session';

/**
 * The MCP name a program uses to ask for tool results' full JSON (`structuredContent`): declared as an experimental
 * client capability (`{"experimental": {"ai.aiti/structured": {}}}`, for a whole session or, in 2026-07-28, in a
 * request's envelope), or set to true in one call's `_meta`. Without it a result is the text written for a model
 * only: clients that show `structuredContent` instead of the text (Claude Code, Codex, VS Code) would otherwise
 * put the JSON in front of the model.
 */
export const STRUCTURED_RESULTS = 'ai.aiti/structured';

/**
 * The `_meta` key of a tools/call that says how long its MCP client waits for the call, in ms (the stdio shim reads
 * it from the client's own settings and adds it): a question to the human answers before that (mcp/patience.ts).
 */
export const CLIENT_TIMEOUT_MS = 'ai.aiti/clientTimeoutMs';
