import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type FixtureWorld } from '../helpers/fixture-app.js';
import { ensurePageAgentBuilt } from '../page/harness.js';
import { drive } from './drive.js';
import { lineOf, pickWithMouse } from './human.js';
import { FORMS, TRIP_FIELDS } from './forms.js';
import { fixtureSuite, heading } from './suite.js';

const FORM = 'app/TripForm.tsx';

const world = fixtureSuite({
  name: 'next-app',
  title: 'a Next.js 16 App Router app (Turbopack dev) with react-hook-form, react-select, react-datepicker and a range',
  frameworks: ['Next.js', 'React'],
  fields: TRIP_FIELDS,
  ...FORMS['next-app'],
  sources: [
    heading(FORM, 'TripForm'),
    {
      what: 'a button',
      target: (tab) => tab.getByRole('button', { name: 'Count' }),
      file: FORM,
      marker: 'onClick={() => setClicks',
      component: 'TripForm',
    },
  ],
});

describe('Next.js: what a click raises', () => {
  it('a click whose handler throws says so in its own result, at the line written in availability.ts', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const click = await d.exec('Input.click', { target: 'text=Check availability' });
    expect(click.raised).toEqual([
      {
        kind: 'error',
        message: "TypeError: Cannot read properties of undefined (reading 'taken')",
        at: expect.stringMatching(
          new RegExp(
            `^${join(world().root, 'app/availability.ts')}:${lineOf(world().root, 'app/availability.ts', 'return !entry.taken')}:\\d+$`,
          ),
        ),
      },
    ]);
  });
});

describe('Next.js with webpack (next dev --webpack): the picker finds the line through its source maps', () => {
  let webpack: FixtureWorld;
  beforeAll(async () => {
    ensurePageAgentBuilt();
    webpack = await startFixture('next-app', { bundler: 'webpack' });
  }, 150_000);
  afterAll(() => webpack?.close());

  it('names the file and line of a tag and its component', async () => {
    const d = await drive(webpack);
    await d.tab.locator('#state').waitFor();
    const picked = await pickWithMouse(d, d.tab.locator('h1'));
    expect(picked.source).toMatchObject({
      file: join(webpack.root, FORM),
      line: lineOf(webpack.root, FORM, '<h1>'),
      component: 'TripForm',
    });
  });
});
