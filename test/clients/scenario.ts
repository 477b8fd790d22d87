import type { ClientRun } from './drivers.js';
import type { Conversation, Script, ToolRead, Turn } from './model/types.js';
import type { TappedCall } from './tap.js';
import type { Human } from './world.js';

/** A step of a scripted model: the conversation so far in, the next turn out. */
export type Step = (conversation: Conversation) => Turn | Promise<Turn>;

/** The script that plays `list` in order (step n answers the turn after n tool results), then says "done". */
export function steps(list: Step[]): Script {
  return (conversation) => list[conversation.reads.length]?.(conversation) ?? { text: 'done' };
}

export const call = (tool: string, args: Record<string, unknown> = {}): Turn => ({ call: tool, args });

/** What the human pushes in the main run: short enough for the notice to quote it whole. */
export const PUSH = 'Please make the buttons blue';

/** The ref the model read for an element of the outline (the read may be our text or a JSON string of it). */
export function refIn(read: ToolRead | undefined, role: string, name: string): string {
  const found = new RegExp(`\\b(e\\d+) ${role} \\\\?"${name}`).exec(read?.text ?? '');
  if (!found?.[1]) throw new Error(`no ${role} "${name}" in what the model read:\n${read?.text}`);
  return found[1];
}

/** The tools whose reading the Done-when names. */
export const CHECKED = [
  'page_snapshot',
  'page_exec',
  'form_fill',
  'page_logs',
  'self_ui',
  'bridge_status',
  'user_confirm',
  'aiti_inbox',
] as const;

/**
 * The main run: every tool the Done-when names, on a real page, with a human push before page_logs (so its
 * result must carry the notice and name the push), a screenshot, and a sync user_confirm the human answers at
 * once.
 */
export function mainScript(human: Human, ids: { agentId: string; pageId: string }): Script {
  let answered: Promise<unknown> = Promise.resolve();
  return steps([
    () => call('aiti_hello', { agentId: ids.agentId, pageId: ids.pageId }),
    () => call('bridge_status'),
    () => call('page_snapshot'),
    () => call('form_fill', { fields: { 'New task': 'Buy milk' }, button: 'Add task' }),
    () => call('self_ui'),
    (c) => call('page_exec', { cmd: 'Input.click', args: { target: refIn(c.reads[2], 'button', 'Check stock') } }),
    async () => {
      await human.push(ids.agentId, PUSH);
      return call('page_logs');
    },
    () => call('aiti_inbox'),
    () => call('page_exec', { cmd: 'Page.screenshot', args: { maxWidth: 400 } }),
    () => {
      answered = human.answer(ids.agentId, 'go ahead');
      return call('user_confirm', { prompt: 'Add "Buy milk" to the shared list too?', timeoutMs: 120_000 });
    },
    async () => {
      await answered;
      return { text: 'done' };
    },
  ]);
}

/**
 * The long ask: a sync user_confirm whose human answers only once the client stopped waiting for the call (the
 * bridge answers that the ask is still open before the client's own time-out), then aiti_inbox. `late` resolves
 * with the human's answer (the window's HTTP status).
 */
export function longAskScript(
  human: Human,
  agentId: string,
): { script: Script; late: () => Promise<{ status: number; askId: string; note: string }> } {
  const note = `late answer ${agentId}`;
  let late: Promise<{ status: number; askId: string; note: string }> | undefined;
  let letGo = () => {};
  const clientLetGo = new Promise<void>((resolve) => (letGo = resolve));
  const script = steps([
    () => call('aiti_hello', { agentId }),
    () => {
      late = human.answer(agentId, note, clientLetGo).then(({ ask, status }) => ({ status, askId: ask.askId, note }));
      return call('user_confirm', { prompt: 'Deploy the release to production?', timeoutMs: 600_000 });
    },
    async () => {
      // the model reads the call's result: its client waits on it no more, so the human's answer comes after that
      letGo();
      await late;
      return call('aiti_inbox');
    },
  ]);
  return {
    script,
    late: () => late ?? Promise.reject(new Error('the ask was never made')),
  };
}

/** One tool call of a run: what the bridge answered (ours) beside what the model read of it. */
export interface Reading {
  tool: string;
  args: unknown;
  ours: TappedCall;
  read: ToolRead;
}

/** The run's tool calls, in order, paired with the tool results of the last request the model got. */
export function readings(run: ClientRun): Reading[] {
  const last = run.model.turns[run.model.turns.length - 1];
  const reads = last?.reads ?? [];
  return reads.map((read, i) => {
    const ours = run.tap.calls[i];
    if (!ours || ours.tool !== read.tool)
      throw new Error(
        `the model's tool result ${i} (${read.tool}) has no matching call at the bridge (${ours?.tool ?? 'none'})`,
      );
    return { tool: read.tool, args: ours.args, ours, read };
  });
}
