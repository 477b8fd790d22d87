import type { BridgeContext } from '../context.js';

/** What an agent last saw of a page (one frame of it): the baseline its action diffs are computed against. */
export interface SeenOutline {
  outline: string;
  /** the snapshot's own options, so the next one after an action covers the same part of the page */
  target?: string;
  depth?: number;
  url: string;
  viewport?: unknown;
  frameworks?: string[];
  /** the outline is a modal dialog (the page behind it inert) */
  modal?: boolean;
  /** with a modal open: the page as the agent last saw it before the dialog, the baseline once it closes */
  page?: string;
}

/** Beyond this many agent × page × frame baselines, the oldest is forgotten (it then gives no diff). */
const MAX_ENTRIES = 256;

/**
 * The last outline each agent read of each page: page_snapshot sets it, actions after it report the change
 * since then and move it forward. Kept in memory only; a forgotten baseline just means no diff.
 */
export class OutlineMemory {
  private readonly seen = new Map<string, SeenOutline>();

  private static key(agentId: string, pageId: string, frameId: string): string {
    return `${agentId}\u0000${pageId}\u0000${frameId}`;
  }

  get(agentId: string, pageId: string, frameId: string): SeenOutline | undefined {
    return this.seen.get(OutlineMemory.key(agentId, pageId, frameId));
  }

  set(agentId: string, pageId: string, frameId: string, value: SeenOutline): void {
    const key = OutlineMemory.key(agentId, pageId, frameId);
    this.seen.delete(key);
    this.seen.set(key, value);
    if (this.seen.size > MAX_ENTRIES) {
      const oldest = this.seen.keys().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }

  forget(agentId: string, pageId: string, frameId: string): void {
    this.seen.delete(OutlineMemory.key(agentId, pageId, frameId));
  }
}

/** One memory per bridge (tests run several bridges in one process), made on first use. */
const memories = new WeakMap<BridgeContext, OutlineMemory>();

export function outlineMemory(bridge: BridgeContext): OutlineMemory {
  let memory = memories.get(bridge);
  if (!memory) {
    memory = new OutlineMemory();
    memories.set(bridge, memory);
  }
  return memory;
}
