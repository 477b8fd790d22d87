import type { z } from 'zod';
import type { ToolDefinition } from '../tool.js';
import { aitiHello } from './aiti-hello.js';
import { aitiInbox } from './aiti-inbox.js';
import { bridgeStatus } from './bridge-status.js';
import { fileStat } from './file-stat.js';
import { formFill } from './form-fill.js';
import { pageExec } from './page-exec.js';
import { pageLogs } from './page-logs.js';
import { pageNetwork } from './page-network.js';
import { pageSnapshot } from './page-snapshot.js';
import { selfUi } from './self-ui.js';
import { userChoose } from './user-choose.js';
import { userConfirm } from './user-confirm.js';
import { userInput } from './user-input.js';
import { userNotify } from './user-notify.js';
import { userPickElement } from './user-pick-element.js';
import { userPresence } from './user-presence.js';

/**
 * Every MCP tool, one definition per file (its input schema beside its handler). Append new tools here: the
 * server lists them, `aiti-bridge call` checks arguments with them, docs/TOOLS.md and the tests read this list.
 */
export const TOOLS = [
  pageExec,
  pageSnapshot,
  bridgeStatus,
  pageLogs,
  pageNetwork,
  selfUi,
  formFill,
  fileStat,
  userPickElement,
  userConfirm,
  userChoose,
  userInput,
  userPresence,
  userNotify,
  aitiHello,
  aitiInbox,
] as const satisfies readonly ToolDefinition[];

export type ToolName = (typeof TOOLS)[number]['name'];
/** The arguments of one tool, as its handler gets them. */
export type ToolArgs<N extends ToolName> = z.infer<Extract<(typeof TOOLS)[number], { name: N }>['inputSchema']>;

export const TOOL_NAMES: readonly ToolName[] = TOOLS.map((tool) => tool.name);

/** The tool named `name`, or undefined (a name from a client is any string). */
export function findTool(name: string): ToolDefinition | undefined {
  return (TOOLS as readonly ToolDefinition[]).find((tool) => tool.name === name);
}
