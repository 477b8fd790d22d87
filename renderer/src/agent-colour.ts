import type { CSSProperties } from 'react';

/** Hues far enough apart to tell agents apart at a glance (the accent blue is left to the window itself). */
const HUES = [12, 145, 280, 35, 190, 330, 95, 250, 60, 170];

/** The agent's own hue, the same in every window and after every restart (it comes from the id alone). */
export function agentHue(agentId: string): number {
  let hash = 0;
  for (let i = 0; i < agentId.length; i++) hash = (hash * 31 + agentId.charCodeAt(i)) >>> 0;
  return HUES[hash % HUES.length] ?? 0;
}

/** The style that gives an element its agent's colour (the CSS reads --agent-h for its light and dark shade). */
export function agentStyle(agentId: string): CSSProperties {
  return { '--agent-h': String(agentHue(agentId)) } as CSSProperties;
}
