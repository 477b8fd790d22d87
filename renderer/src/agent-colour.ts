import type { CSSProperties } from 'react';

/** Hues far enough apart to tell agents apart at a glance (the accent blue is left to the window itself). */
export const HUES = [12, 145, 280, 35, 190, 330, 95, 250, 60, 170, 310, 215];

const KEY = 'aiti.agentHues';

/** Each agent's place in HUES, as assigned: kept in this browser, so an agent keeps its colour across reloads. */
let assigned = new Map<string, number>();
try {
  const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, unknown>;
  assigned = new Map(
    Object.entries(saved).filter(
      (e): e is [string, number] => typeof e[1] === 'number' && e[1] >= 0 && e[1] < HUES.length,
    ),
  );
} catch {
  // no storage: colours are assigned afresh
}
/** The agents present now: no two of them share a hue (while there are no more of them than hues). */
let present: readonly string[] = [];

function save(): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(assigned)));
  } catch {
    // storage full or disabled: the colours last as long as the tab
  }
}

/**
 * Gives every agent present its own hue, assigned rather than hashed: an agent keeps the hue it had while no other
 * present agent holds it; one that has none, or whose hue another present agent kept first, takes the first hue
 * nobody present holds. Only past HUES.length agents at once do two share one.
 */
export function assignHues(agentIds: Iterable<string>): void {
  const ids = [...new Set(agentIds)];
  present = ids;
  const taken = new Map<number, string>();
  const needs: string[] = [];
  for (const id of ids) {
    const hue = assigned.get(id);
    if (hue !== undefined && !taken.has(hue)) taken.set(hue, id);
    else needs.push(id);
  }
  let changed = false;
  for (const id of needs) {
    const free = HUES.findIndex((_, i) => !taken.has(i));
    const hue = free >= 0 ? free : taken.size % HUES.length;
    taken.set(hue, id);
    if (assigned.get(id) !== hue) {
      assigned.set(id, hue);
      changed = true;
    }
  }
  if (changed) save();
}

/** The agent's hue; an agent not assigned yet gets one beside the agents present. */
export function agentHue(agentId: string): number {
  if (!assigned.has(agentId)) assignHues([...present, agentId]);
  return HUES[assigned.get(agentId) ?? 0] ?? 0;
}

/** The style that gives an element its agent's colour (the CSS reads --agent-h for its light and dark shade). */
export function agentStyle(agentId: string): CSSProperties {
  return { '--agent-h': String(agentHue(agentId)) } as CSSProperties;
}
