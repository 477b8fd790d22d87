/**
 * Who asks the human, as the asks need them: the port the MCP tools plug a tool call into (bridge/mcp/asker.ts).
 * Asks know nothing of MCP: an asker is an agent id, a signal that withdraws the question, and a way to say
 * "still waiting" to whoever waits.
 */
export interface Asker {
  readonly agentId: string;
  /** aborted when the asker gives up (the call was cancelled, the client went away): the question is withdrawn */
  readonly signal: AbortSignal;
  /** tells the waiting asker how the countdown stands (MCP progress notifications) */
  progress(message: string, progress: number): Promise<void>;
  /**
   * how long the asker waits for an answer at all (its MCP client's own time-out for a tool call), when that is
   * known: a sync ask still open by then is handed to the inbox and the asker told where its outcome will come
   */
  readonly patienceMs?: number;
}

/** What an ask answers its asker: the value for programs, and one line for people and models. */
export interface AskAnswer {
  structured: Record<string, unknown>;
  summary: string;
  /** images the human pasted into the answer (base64), for the asker to show its model */
  images?: Array<{ data: string; mimeType: string }>;
}
