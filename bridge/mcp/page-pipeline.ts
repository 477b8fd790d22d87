import { pageCommand, type Json, type PageCommandName } from '../protocol/index.js';
import type { Page } from '../pages/registry.js';
import { waitAfterNavigation } from './after-navigation.js';
import type { OutlineChange } from './outline-diff.js';
import { changeSinceSnapshot, forgetOutline } from './outline-change.js';
import { asObject, checkPageArgs, sendPageCommand, type SendOptions } from './page-command.js';
import type { ToolCall } from './tool.js';

/** A page command's answer and what followed it, as its descriptor asked. */
export interface PageAnswer {
  /** the page's answer (an image's data taken out of it) */
  result: Record<string, Json>;
  /** `image`: the picture, for the agent as MCP image content rather than base64 in the text */
  image?: { data: string; mimeType: string };
  /** `changesOutline` (or a navigation within the document): how the outline changed since the agent's last snapshot */
  outlineChange?: { change: OutlineChange; text: string };
}

/**
 * The page-command pipeline every tool that sends one goes through: gate → own time-out → send (sendPageCommand),
 * then wait after a navigation → the outline's change → the image. Which steps run is read from the command's
 * descriptor (PAGE_COMMANDS in bridge/protocol/commands.ts) and from the page's answer, never from the tool, so a
 * descriptor's flag means the same from page_exec, form_fill, page_snapshot, self_ui or page_logs.
 */
export async function runPageCommand(
  call: ToolCall,
  page: Page,
  cmd: PageCommandName,
  args: unknown,
  options: SendOptions = {},
): Promise<PageAnswer> {
  const descriptor = pageCommand(cmd);
  const checked = checkPageArgs(cmd, args);
  const sent = await sendPageCommand(call, page, cmd, checked, options);
  const result = asObject(descriptor.navigates ? await waitAfterNavigation(call, page, checked, sent) : sent);
  const image = descriptor.image ? imageOf(result) : undefined;
  if (image) {
    const { data: _data, ...rest } = result;
    return { result: rest, image };
  }
  const outlineChange = await outlineStep(call, page, options.frameId, cmd, result);
  return { result, ...(outlineChange ? { outlineChange } : {}) };
}

/**
 * After an action that may change the page (its descriptor says so, or a navigation stayed in the document), the
 * outline's change since the agent's last snapshot; a result that left the document (a click that navigated, a
 * reload) drops the old outline instead: it is no baseline for the new one.
 */
async function outlineStep(
  call: ToolCall,
  page: Page,
  frameId: string | undefined,
  cmd: PageCommandName,
  result: Record<string, Json>,
): Promise<PageAnswer['outlineChange']> {
  const leaving = typeof result.navigating === 'string' || result.reloaded === true;
  const { navigates, changesOutline } = pageCommand(cmd);
  const sameDocument = navigates === true && result.reloaded === false;
  if (leaving) forgetOutline(call, page, frameId);
  else if (changesOutline || sameDocument) return changeSinceSnapshot(call, page, frameId);
  return undefined;
}

function imageOf(result: Record<string, Json>): { data: string; mimeType: string } | undefined {
  const { data, mimeType } = result;
  return typeof data === 'string' && typeof mimeType === 'string' && mimeType.startsWith('image/')
    ? { data, mimeType }
    : undefined;
}
