import { join } from 'node:path';
import type { Locator, Page as Tab } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type FixtureName, type FixtureWorld } from '../helpers/fixture-app.js';
import { waitFor } from '../helpers/wait.js';
import { ensurePageAgentBuilt } from '../page/harness.js';
import { drive, refOn } from './drive.js';
import type { FixtureForm } from './forms.js';
import { altClick, lineOf, pickWithMouse } from './human.js';

/** One fixture of the matrix: what its form holds, what filling it must leave in the app, where its lines are. */
export interface FixtureCase extends FixtureForm {
  name: FixtureName;
  /** a sentence for the describe block */
  title: string;
  frameworks: string[];
  /** the fields self_ui must list: [label, type] in order */
  fields: Array<[string, string]>;
  /** elements the picker and Alt+click must name: the file (under the root) and a text on the line */
  sources: Array<{ what: string; target: (tab: Tab) => Locator; file: string; marker: string; component?: string }>;
  /** opens the fixture's dialog, as a person would, when it has one: its snapshot is measured against Playwright's */
  openDialog?: (tab: Tab) => Promise<void>;
}

/** A fixture's h1: a plain tag, whose component is the one that renders it (its owner). */
export function heading(file = 'src/App.tsx', component = 'App'): FixtureCase['sources'][number] {
  return {
    what: 'a plain tag (its owner is the component that renders it)',
    target: (tab) => tab.locator('h1'),
    file,
    marker: '<h1>',
    component,
  };
}

/**
 * The same checks for every fixture: snapshot, fill with the app's state checked, refs across a reload, source.
 * Returns the file's fixture world (started in beforeAll) for the fixture's own tests.
 */
export function fixtureSuite(c: FixtureCase): () => FixtureWorld {
  let world: FixtureWorld;
  beforeAll(async () => {
    ensurePageAgentBuilt();
    world = await startFixture(c.name);
  }, 150_000); // Vite bundles the library's dependencies on the first load (antd: tens of seconds on a busy machine)
  afterAll(() => world?.close());

  describe(c.title, () => {
    it('the snapshot shows its controls and the frameworks are detected', async () => {
      const d = await drive(world);
      await d.tab.locator('#state').waitFor();
      await waitFor(
        () => c.frameworks.every((f) => d.page.frameworks.includes(f)),
        5000,
        `${c.frameworks.join(', ')} detected`,
      );
      const snap = await d.tool('page_snapshot');
      expect(snap.frameworks).toEqual(expect.arrayContaining(c.frameworks));
      const outline = String(snap.outline);
      for (const [label] of c.fields) expect(outline).toContain(`"${label}"`);
    });

    it('self_ui lists every field by its label and kind; form_fill fills them all and the app keeps every value', async () => {
      const d = await drive(world);
      await d.tab.locator('#state').waitFor();
      const ui = await d.tool('self_ui');
      const [form] = ui.forms as Array<{ fields: Array<{ label: string; type: string }> }>;
      expect(form?.fields.map((f) => [f.label, f.type])).toEqual(c.fields);
      const filled = await d.tool('form_fill', { fields: c.fill.fields, button: c.fill.button });
      expect(filled.notFilled).toBeUndefined();
      expect((filled.filled as Array<{ field: string }>).map((f) => f.field)).toEqual(Object.keys(c.fill.fields));
      await d.saved();
      expect(await d.state()).toEqual({ saved: c.saved, clicks: 0 });
    });

    it.skipIf(!c.openDialog)(
      "with its dialog open, the outline with refs is no larger than Playwright's aria snapshot of the same state",
      async () => {
        const d = await drive(world);
        await d.tab.locator('#state').waitFor();
        await c.openDialog?.(d.tab);
        await d.tab.locator('[role=dialog], dialog[open]').first().waitFor();
        const outline = String((await d.tool('page_snapshot')).outline);
        const aria = await d.tab.locator('body').ariaSnapshot();
        if (process.env.SHOW) console.error(`${outline}\n---\n${aria}\n${outline.length} vs ${aria.length}`);
        expect(outline).toMatch(/\bdialog\b/);
        expect(outline.length).toBeLessThanOrEqual(aria.length);
      },
    );

    it('a ref from before a reload is refused and nothing is clicked; DOM.query hands out new refs', async () => {
      const d = await drive(world);
      await d.tab.locator('#state').waitFor();
      const count = refOn(String((await d.tool('page_snapshot')).outline), '"Count"');
      await d.exec('Input.click', { target: count });
      expect(await d.state()).toMatchObject({ clicks: 1 });
      await d.tab.reload();
      await d.tab.locator('#state').waitFor();
      await waitFor(() => Boolean(d.page.frames.get('main')?.stream?.isOpen), 10_000, 'the new document connected');
      const query = await d.exec('DOM.query', { target: 'css=button', all: true });
      expect((query.matches as Array<{ ref: string }>).map((m) => m.ref)).not.toContain(count);
      const error = await d.toolError('page_exec', { cmd: 'Input.click', args: { target: count } });
      expect(error).toMatch(new RegExp(`ref ${count} is from an earlier document`));
      expect(await d.state()).toMatchObject({ clicks: 0 });
    });

    it('the picker names the file and line of each element, and Alt+click opens it', async () => {
      const d = await drive(world);
      await d.tab.locator('#state').waitFor();
      for (const s of c.sources) {
        const picked = await pickWithMouse(d, s.target(d.tab));
        expect(picked.source, s.what).toMatchObject({
          file: join(world.root, s.file),
          line: lineOf(world.root, s.file, s.marker),
          ...(s.component ? { component: s.component } : {}),
        });
      }
      const [first] = c.sources;
      if (!first) return;
      await altClick(d, first.target(d.tab));
      const line = lineOf(world.root, first.file, first.marker);
      expect(await world.opened()).toMatch(new RegExp(`^${join(world.root, first.file)}:${line}:\\d+$`));
      // the human sees which component it opened
      if (first.component)
        await expect
          .poll(() => d.tab.locator('aiti-overlay .toast').allTextContents())
          .toContainEqual(
            expect.stringContaining(`Opening ${first.component} at ${join(world.root, first.file)}:${line}`),
          );
      expect(await d.state()).toMatchObject({ saved: null, clicks: 0 });
    });
  });
  return () => world;
}
