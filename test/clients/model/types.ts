/** An image a tool result put in front of the model. */
export interface ReadImage {
  mimeType: string;
  /** base64 bytes */
  data: string;
}

/**
 * One tool result as the model reads it in a request the client sent: `text` is every text the client put in the
 * result (blocks joined by "\n"), `images` every image; `wrapping` is what the client added around our text
 * (Codex's "Wall time …" header, Gemini's `{"output": …}` key …), already taken out of `text` where the client's
 * format shows where it is. `raw` is the block as sent, for a failing test to print.
 */
export interface ToolRead {
  /** the tool's name without the client's prefix (mcp__aiti__page_snapshot → page_snapshot) */
  tool: string;
  callId: string;
  text: string;
  images: ReadImage[];
  wrapping: string;
  /** the client marked it an error (is_error, success: false …) */
  isError: boolean;
  raw: unknown;
}

/** A tool definition as the client sent it to the model. */
export interface ToolDef {
  /** the name as the client sent it */
  name: string;
  /** the name without the client's prefix */
  tool: string;
  /** the namespace the client put it in (Codex: `mcp__aiti`) */
  namespace?: string;
  /** the JSON of the definition as it went out: its characters are what the model reads */
  json: string;
}

/** What one model request holds: the tools it offers and the tool results the conversation carries, in order. */
export interface Conversation {
  tools: ToolDef[];
  reads: ToolRead[];
  /** the text of the first user message (the prompt) */
  prompt: string;
}

/** What the scripted model answers next: call one tool, or end with a text. */
export type Turn = { call: string; args: Record<string, unknown> } | { text: string };

/**
 * The scripted model. It sees the conversation so far (its tool results as the model reads them, in order) and
 * returns the next turn, so a step can take its arguments from what the previous result said (a ref, an askId). It
 * may also act on the world before it answers (push a message, answer an ask): the client gets the turn after.
 */
export type Script = (conversation: Conversation) => Turn | Promise<Turn>;

/** One model API, as a stand-in server speaks it. */
export interface ModelApi {
  /** whether this request is the agent's conversation (else a side request: titles, classifiers, quota checks) */
  isAgentTurn(body: Record<string, unknown>): boolean;
  parse(body: Record<string, unknown>): Conversation;
  /** the SSE events (each `event:`/`data:` block) that answer with this turn, calling `tool` by its client name */
  answer(turn: { call: ToolDef; args: Record<string, unknown>; id: string } | { text: string }): string;
  /** the answer to a side request: a short text */
  side(body: Record<string, unknown>): string;
}
