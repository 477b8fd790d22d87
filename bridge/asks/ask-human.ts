import type { AskOutcome } from '../protocol/index.js';
import { deliver } from '../inbox/delivery.js';
import { resolvePage } from '../mcp/resolve-page.js';
import type { ToolCall, ToolResult } from '../mcp/tool.js';
import type { Ask, AskSpec } from './asks.js';
import { waitForHuman } from './wait.js';

export interface AskMode {
  /** return {askId} at once; the outcome goes to the inbox as a user_answer message */
  async?: boolean;
  /** wait even when the human is marked away */
  wait?: boolean;
  /** starts the work that may end the ask besides the human's answer (the page's picker) */
  onOpen?: (ask: Ask) => void;
}

/**
 * The common path of the user_* tools: an away human answers `away` at once (unless the agent waits), an async
 * ask returns its id and later lands in the inbox, a sync ask holds the call (with progress) until it ends.
 */
export async function askHuman(
  call: ToolCall,
  spec: Omit<AskSpec, 'agentId'>,
  mode: AskMode = {},
): Promise<ToolResult> {
  const { asks } = call.bridge;
  if (!mode.async && asks.away && !mode.wait) {
    return outcomeResult(
      asks.immediate(spec.kind, 'away', { text: 'the human is marked away; the question was not shown' }),
    );
  }
  const ask = asks.create({ ...spec, agentId: call.agent.agentId });
  mode.onOpen?.(ask);
  if (mode.async) {
    void ask.outcome.then((outcome) => answerToInbox(call, ask.spec.agentId, outcome));
    return {
      structured: { askId: ask.askId, status: 'open' },
      summary: `asked the human (${ask.askId}); the outcome will arrive in aiti_inbox as a user_answer message`,
    };
  }
  return outcomeResult(await waitForHuman(call, ask));
}

/** The tool result of an ended ask: the outcome as structuredContent, with a one-line summary. */
export function outcomeResult(outcome: AskOutcome): ToolResult {
  return { structured: outcome, summary: summarize(outcome) };
}

export function summarize(outcome: AskOutcome): string {
  const extra = [outcome.note && `note: ${outcome.note}`, outcome.text].filter(Boolean).join('; ');
  const tail = extra ? ` (${extra})` : '';
  switch (outcome.status) {
    case 'answered':
      return `the human answered ${JSON.stringify(outcome.value ?? null)}${tail}`;
    case 'rejected':
      return `the human rejected the question${outcome.reason ? `: ${outcome.reason}` : ''}${tail}`;
    case 'timed_out':
      return `the human did not answer in time${tail}`;
    case 'away':
      return `the human is away${tail}`;
    case 'cancelled':
      return `the question was withdrawn${tail}`;
  }
}

/** The outcome of an async ask goes to the asking agent by its best channel, journaled in its inbox first. */
async function answerToInbox(call: ToolCall, agentId: string, outcome: AskOutcome): Promise<void> {
  const { bridge } = call;
  try {
    await deliver(bridge, agentId, {
      kind: 'user_answer',
      from: 'window',
      text: summarize(outcome),
      payload: outcome,
      ref: outcome.askId,
    });
  } catch (error) {
    bridge.log.child('asks').error(`could not put the answer to ${outcome.askId} in ${agentId}'s inbox:`, error);
  }
}

/** The page an ask is about, for the window's label: the one named, else the one bound by aiti_hello, if any. */
export function askedAbout(call: ToolCall, pageId: string | undefined): { pageId?: string; pageUrl?: string } {
  const page = pageId
    ? resolvePage(call, pageId)
    : call.agent.pageId
      ? call.bridge.pages.get(call.agent.pageId)
      : undefined;
  return page ? { pageId: page.pageId, pageUrl: page.url } : {};
}
