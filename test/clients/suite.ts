import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRun, runClient, type ClientName, type ClientRun, type Transport } from './drivers.js';
import { installedClient } from './install.js';
import { CHECKED, longAskScript, mainScript, PUSH, readings, type Reading } from './scenario.js';
import { dumpRun, report, toolDefinitions } from './report.js';
import { startWorld, type World } from './world.js';

/** The client's own tool-call limit in the long-ask run: short, so the run is, and set the client's own way. */
const CLIENT_TIMEOUT_MS = 10_000;
const TRANSPORTS: Transport[] = ['stdio', 'http'];

/** What a failing assertion prints: both texts, whole. */
const both = (r: Reading) =>
  `${r.tool} ${JSON.stringify(r.args)}\n--- our text (${r.ours.text.length} chars):\n${r.ours.text}\n--- the model read (${r.read.text.length} chars; the client's wrapping taken out: ${JSON.stringify(r.read.wrapping)}):\n${r.read.text}`;

/**
 * The real-client checks of issue 35 for one client: a main run over the shim (registered with --register-shim)
 * and one over Streamable HTTP, each on its own tab of the app, and a long-ask run with a short client time-out,
 * all three at once against one bridge and one browser. The tests then read what the stand-in model received.
 */
export function clientSuite(client: ClientName): void {
  const installed = installedClient(client);
  const missing = 'missing' in installed ? installed.missing : undefined;
  // a machine without the client (npm unreachable, a platform without its binary) says so, and skips
  if (missing) console.warn(`test/clients: ${client} is not installed here, its tests skip: ${missing}`);
  const title =
    'missing' in installed
      ? `${client}: SKIPPED, not installed here (${installed.missing.split('\n')[0]})`
      : `${client} ${installed.version} (real CLI, stand-in model) against the bridge and a real page`;

  describe.skipIf(missing !== undefined)(title, () => {
    let world: World;
    const runs: Partial<Record<Transport | 'ask', ClientRun>> = {};
    let late: { status: number; askId: string; note: string } | undefined;
    let lateError: Error | undefined;

    beforeAll(async () => {
      world = await startWorld();
      const main = async (transport: Transport) => {
        const { pageId } = await world.openApp();
        const script = mainScript(world.human, { agentId: `${client}-${transport}`, pageId });
        runs[transport] = await runClient({ client, transport, bridgeUrl: world.bridge.url, script });
      };
      const longAsk = async () => {
        const ask = longAskScript(world.human, `${client}-ask`);
        runs.ask = await runClient({
          client,
          transport: 'stdio',
          bridgeUrl: world.bridge.url,
          script: ask.script,
          toolTimeoutMs: CLIENT_TIMEOUT_MS,
        });
        late = await ask.late().catch((error: Error) => {
          lateError = error;
          return undefined;
        });
      };
      const started = Date.now();
      // every run to its end, even when one fails at once: afterAll closes the world they share
      const settled = await Promise.allSettled([main('stdio'), main('http'), longAsk()]);
      console.info(report(client, runs, Date.now() - started));
      console.info(
        `  long ask: the human answered ${late ? `${late.askId} after the client stopped waiting: HTTP ${late.status}` : `nothing (${String(lateError)})`}`,
      );
      for (const result of settled) if (result.status === 'rejected') throw result.reason;
      const dump = process.env.AITI_CLIENTS_DUMP;
      if (dump) for (const [key, run] of Object.entries(runs)) if (run) dumpRun(dump, key, run);
    }, 400_000);

    afterAll(async () => {
      for (const run of Object.values(runs)) if (run) await closeRun(run);
      await world?.close();
    });

    /** The run, which must have gone to its end: the client exited 0 and the script was never wrong. */
    const finished = (key: Transport | 'ask'): ClientRun => {
      const run = runs[key];
      if (!run) throw new Error(`the ${key} run did not happen`);
      expect(run.model.errors.map(String), 'the scripted model never failed').toEqual([]);
      expect(
        { code: run.code, stopped: run.stopped },
        `${client} exited by itself with 0\n${run.stderr.slice(-2000)}\n${run.stdout.slice(-2000)}`,
      ).toEqual({ code: 0, stopped: undefined });
      return run;
    };

    for (const transport of TRANSPORTS) {
      describe(`registered ${transport === 'stdio' ? 'with --register-shim (stdio shim)' : 'as a Streamable HTTP server'}`, () => {
        it("connects: the model is offered the bridge's tools from its first turn on", () => {
          const run = runs[transport];
          if (!run) throw new Error(`the ${transport} run did not happen`);
          const first = run.model.turns[0];
          expect(
            first?.tools.filter((t) => t.tool === 'aiti_hello' || t.tool === 'page_snapshot').length,
            `the first request offers aiti_hello and page_snapshot; ${client} said:\n${run.stderr.slice(-3000)}`,
          ).toBe(2);
        });

        it.each(CHECKED)('%s: the model reads our compact text, within 10 % of its characters', (tool) => {
          const got = readings(finished(transport)).filter((r) => r.tool === tool);
          expect(got.length, `the run called ${tool}`).toBeGreaterThan(0);
          for (const r of got) {
            const firstLine = r.ours.text.split('\n')[0] ?? '';
            expect(r.read.text, `the model reads our first line\n${both(r)}`).toContain(firstLine);
            expect(
              Math.abs(r.read.text.length - r.ours.text.length),
              `the model reads ${r.read.text.length} characters for our ${r.ours.text.length}\n${both(r)}`,
            ).toBeLessThanOrEqual(r.ours.text.length * 0.1);
          }
        });

        it('after a human push, the next tool result the model reads has the unread notice and names the push', () => {
          const all = readings(finished(transport));
          const next = all.find((r) => r.tool === 'page_logs');
          if (!next) throw new Error('the run never called page_logs');
          expect(next.ours.text, 'the bridge wrote the notice').toMatch(/^📬 /m);
          expect(next.read.text, `the notice line reaches the model\n${both(next)}`).toMatch(/^📬 /m);
          expect(next.read.text, `the push is named\n${both(next)}`).toContain(PUSH);
          const inbox = all.find((r) => r.tool === 'aiti_inbox');
          expect(inbox?.read.text, 'aiti_inbox hands the push over').toContain(PUSH);
        });

        it('a Page.screenshot from page_exec reaches the model as an image', () => {
          const shot = readings(finished(transport)).find(
            (r) => r.tool === 'page_exec' && JSON.stringify(r.args).includes('Page.screenshot'),
          );
          if (!shot) throw new Error('the run never took a screenshot');
          expect(shot.ours.images, 'the bridge sent image content').toBe(1);
          expect(
            shot.read.images.map((i) => [i.mimeType, i.data.slice(0, 8)]),
            `the model gets the PNG\n${both(shot)}`,
          ).toEqual([['image/png', 'iVBORw0K']]);
        });
      });
    }

    if (client === 'claude-code')
      it('the tool definitions Claude Code sends (tool search off) total at most 9,000 characters', () => {
        const defs = toolDefinitions(finished('stdio'));
        expect(defs.tools, 'every tool of the bridge is offered').toBeGreaterThanOrEqual(16);
        expect(defs.chars, `per tool: ${JSON.stringify(defs.perTool)}`).toBeLessThanOrEqual(9000);
      });

    it(`a sync user_confirm the human answers after the client stopped waiting (its own ${CLIENT_TIMEOUT_MS / 1000} s limit): the model reads that it is still open and where its answer comes, then reads the answer in aiti_inbox`, () => {
      const all = readings(finished('ask'));
      if (lateError) throw lateError;
      if (!late) throw new Error('the human never saw the ask');
      const asked = all.find((r) => r.tool === 'user_confirm');
      if (!asked) throw new Error('the run never asked');
      expect(asked.read.text, `the model reads the ask id\n${both(asked)}`).toContain(late.askId);
      expect(asked.read.text, `the model reads where its answer comes\n${both(asked)}`).toContain('aiti_inbox');
      expect(late.status, 'the human can still answer after the client gave up').toBe(200);
      const inbox = all.find((r) => r.tool === 'aiti_inbox');
      expect(inbox?.read.text, `the model reads the answer in aiti_inbox\n${inbox ? both(inbox) : ''}`).toContain(
        late.note,
      );
    });
  });
}
