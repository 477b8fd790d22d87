import { MAIN_FRAME, SnapshotResult } from '../protocol/index.js';
import type { Page } from '../pages/registry.js';
import { diffOutlines, type OutlineChange } from './outline-diff.js';
import { outlineMemory, type SeenOutline } from './outline-memory.js';
import { sendPageCommand } from './page-command.js';
import type { ToolCall } from './tool.js';

/** How long the page may keep changing (a re-render, a dialog opening) before the after-action outline is taken. */
export const SETTLE_MS = 300;

/** Remembers the outline an agent just read, as the baseline of its next action's diff. */
export function rememberOutline(
  call: ToolCall,
  page: Page,
  frameId: string | undefined,
  snapshot: SnapshotResult,
  options: { target?: string; depth?: number },
): SeenOutline | undefined {
  const memory = outlineMemory(call.bridge);
  const key = [call.agent.agentId, page.pageId, frameId ?? MAIN_FRAME] as const;
  const before = memory.get(...key);
  memory.set(...key, {
    outline: snapshot.outline,
    url: snapshot.url,
    viewport: snapshot.viewport,
    frameworks: snapshot.frameworks,
    ...options,
    ...modalBaseline(before, snapshot),
  });
  return before;
}

/** With a modal open, the page the agent saw before it (kept through dialogs opened over dialogs). */
function modalBaseline(before: SeenOutline | undefined, now: SnapshotResult): Pick<SeenOutline, 'modal' | 'page'> {
  if (!now.modal) return {};
  const page = before?.modal ? before.page : before?.outline;
  return { modal: true, ...(page !== undefined ? { page } : {}) };
}

/**
 * The change an agent reads: against the page it last saw. A modal that closed is compared with the page as it
 * was before the dialog opened (the dialog's lines are the ones removed), not reported as a whole page added.
 */
function changeText(seen: SeenOutline, now: SnapshotResult): { change: OutlineChange; text: string } {
  if (!seen.modal || now.modal || seen.page === undefined) return diffOutlines(seen.outline, now.outline);
  const diff = diffOutlines(seen.page, now.outline);
  const dialog = seen.outline
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => !line.startsWith('(behind it'));
  return {
    change: { ...diff.change, removed: [...dialog, ...diff.change.removed] },
    text: `The dialog closed; the page since you saw it before the dialog:\n${diff.text}`,
  };
}

/** The action left the document: the old outline is no baseline for the new one. */
export function forgetOutline(call: ToolCall, page: Page, frameId: string | undefined): void {
  outlineMemory(call.bridge).forget(call.agent.agentId, page.pageId, frameId ?? MAIN_FRAME);
}

/**
 * After an action: the change of the outline since this agent's last snapshot of the page, and the new outline
 * becomes the baseline. Nothing when the agent never took a snapshot of it (there is nothing to compare), and
 * nothing when the snapshot fails: the action itself succeeded, only its diff is missing.
 */
export async function changeSinceSnapshot(
  call: ToolCall,
  page: Page,
  frameId: string | undefined,
): Promise<{ change: OutlineChange; text: string } | undefined> {
  const frame = frameId ?? MAIN_FRAME;
  const memory = outlineMemory(call.bridge);
  const seen = memory.get(call.agent.agentId, page.pageId, frame);
  if (!seen) return undefined;
  const options = {
    ...(seen.target !== undefined ? { target: seen.target } : {}),
    ...(seen.depth !== undefined ? { depth: seen.depth } : {}),
  };
  let snapshot: SnapshotResult;
  try {
    const raw = await sendPageCommand(
      call,
      page,
      'Snapshot.take',
      { ...options, settleMs: SETTLE_MS },
      { frameId: frame },
    );
    const parsed = SnapshotResult.safeParse(raw);
    if (!parsed.success) return undefined;
    snapshot = parsed.data;
  } catch {
    memory.forget(call.agent.agentId, page.pageId, frame);
    return undefined;
  }
  const { modal: _modal, page: _page, ...rest } = seen;
  memory.set(call.agent.agentId, page.pageId, frame, {
    ...rest,
    outline: snapshot.outline,
    url: snapshot.url,
    ...modalBaseline(seen, snapshot),
  });
  return changeText(seen, snapshot);
}
