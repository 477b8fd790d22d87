import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { waitFor } from '../helpers/wait.js';
import type { Driver } from './drive.js';

/** The 1-based line of `file` (under the fixture root) holding `marker`: tests name lines by their text. */
export function lineOf(root: string, file: string, marker: string): number {
  const index = readFileSync(join(root, file), 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(marker));
  if (index < 0) throw new Error(`${marker} is not in ${file}`);
  return index + 1;
}

async function centre(target: Locator): Promise<{ x: number; y: number }> {
  const box = await target.boundingBox();
  if (!box) throw new Error('the element has no box');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

export interface Picked {
  tag: string;
  name?: string;
  ref: string;
  source?: { file: string; line?: number; via: string; component?: string };
}

/** user_pick_element, answered by a real mouse: move onto `target` (in any frame) and click it. */
export async function pickWithMouse(d: Driver, target: Locator): Promise<Picked> {
  const asked = d.tool('user_pick_element', { prompt: 'Pick it' });
  await d.tab.locator('aiti-overlay .banner').waitFor();
  const { x, y } = await centre(target);
  await d.tab.mouse.move(x - 5, y - 5);
  await d.tab.mouse.move(x, y, { steps: 3 });
  await waitFor(async () => (await d.tab.locator('aiti-overlay .inspector').isVisible()) === true, 3000, 'highlight');
  await d.tab.mouse.click(x, y);
  const outcome = await asked;
  if (outcome.status !== 'answered') throw new Error(`the pick was ${String(outcome.status)}`);
  return outcome.value as Picked;
}

/** A real Alt+click on `target`. */
export async function altClick(d: Driver, target: Locator): Promise<void> {
  const { x, y } = await centre(target);
  await d.tab.keyboard.down('Alt');
  await d.tab.mouse.click(x, y);
  await d.tab.keyboard.up('Alt');
}
