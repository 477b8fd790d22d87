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

/** Every MCP tool, one definition per file. Append new tools here; docs/TOOLS.md is generated from this list. */
export const TOOLS: ToolDefinition[] = [
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
];
