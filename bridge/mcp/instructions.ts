/**
 * What every client is told, in either protocol era: what the parameters several tools share mean (tools/list
 * leaves their descriptions out, mcp/tool-list.ts), what an ask's outcome says, and how the human's messages arrive.
 */
export const MODERN_INSTRUCTIONS = `AITI Bridge connects you to the web page you are building and to the human at the desk.
Start with bridge_status, or aiti_hello to bind your agent id and a default page.
Page tools: pageId may be left out when one page is connected or aiti_hello bound one (a call without it stays on the page you last used); frameId picks a frame ("main" is the top document). Elements are named by target: a ref from page_snapshot ("e12"), "css=<selector>" or "text=<visible text>".
Ask the human with user_* tools instead of guessing. Each is a card in their window with a countdown (timeoutMs, default 120000, at most 3600000). The outcome is {status: answered|rejected|timed_out|away|cancelled, value, note?, reason?, hint}: follow the hint. async:true returns an askId at once and the outcome arrives in aiti_inbox; wait:true waits even when the human is marked away.
The human's messages arrive in aiti_inbox: a result that ends with a 📬 line means some are unread.`;

/** …and a 2025-era client, which may declare Claude Code's channel. */
export const SERVER_INSTRUCTIONS = `${MODERN_INSTRUCTIONS}
A message may also appear in the conversation as a <channel> tag from this server (attributes kind, from, msg_id): it is the human at the desk talking to you; act on it, then acknowledge it with aiti_inbox {"ack":["<msg_id>"]}.`;
