import { MAIN_FRAME, SnapshotResult } from '../protocol/index.js';
import type { Page } from '../pages/registry.js';
import { diffOutlines, type OutlineChange } from './outline-diff.js';
import { outlineMemory, type SeenOutline } from './outline-memory.js';
import { runPageCommand } from './page-command.js';
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
  });
  return before;
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
    const raw = await runPageCommand(
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
  memory.set(call.agent.agentId, page.pageId, frame, { ...seen, outline: snapshot.outline, url: snapshot.url });
  return diffOutlines(seen.outline, snapshot.outline);
}
