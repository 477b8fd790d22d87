import { MAIN_FRAME } from './common.js';

/**
 * Element refs (README "Refs"): `e12` in the top document, `f1:e12` in the frame the bridge knows as `f1`. A
 * page never hands out the same number twice (the counter lives in the tab's sessionStorage and goes on across
 * reloads and same-origin navigations), so a ref from an earlier document is recognised and refused instead of
 * naming another element. A ref with a frame is routed to that frame without a frameId.
 */
export const REF_PATTERN = /^(?:(f\d+(?:\.\d+)*):)?e(\d{1,15})$/;

export interface ParsedRef {
  /** the frame that handed it out; MAIN_FRAME for the top document */
  frameId: string;
  n: number;
}

export function parseRef(target: string): ParsedRef | undefined {
  const match = REF_PATTERN.exec(target.trim());
  if (!match) return undefined;
  return { frameId: match[1] ?? MAIN_FRAME, n: Number(match[2]) };
}

export function formatRef(frameId: string, n: number): string {
  return frameId === MAIN_FRAME ? `e${n}` : `${frameId}:e${n}`;
}

/** The frame a command's `target` ref belongs to, when it names one (`f1:e3`); undefined otherwise. */
export function frameOfTarget(args: unknown): string | undefined {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return undefined;
  const target = (args as Record<string, unknown>).target;
  if (typeof target !== 'string') return undefined;
  const ref = parseRef(target);
  return ref && ref.frameId !== MAIN_FRAME ? ref.frameId : undefined;
}
