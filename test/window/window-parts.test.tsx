// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PairingCodeAnswer } from '../../bridge/protocol/index.js';
import { agentHue, assignHues, HUES } from '../../renderer/src/agent-colour.js';
import { AskCard } from '../../renderer/src/cards/AskCard.js';
import { Cards } from '../../renderer/src/cards/Cards.js';
import { ruleFor } from '../../renderer/src/cards/auto-answer.js';
import { focusInput } from '../../renderer/src/cards/focus.js';
import { QuickRepliesContext } from '../../renderer/src/quick/context.js';
import { DevicesPanel } from '../../renderer/src/device/DevicesPanel.js';
import type { DeskApi } from '../../renderer/src/device/desk-api.js';
import { publishDevices } from '../../renderer/src/device/desk-feed.js';
import { PagesPanel } from '../../renderer/src/panels/PagesPanel.js';
import type { AutoRule } from '../../renderer/src/shell/settings.js';
import { openAsk, recorder } from './fixtures.js';

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** The old way: a hash of the id into ten hues. */
const hashed = (id: string) => {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  return hash % 10;
};

describe('agent colours', () => {
  it('six agents whose ids hash to the same hue each get their own', () => {
    const ids: string[] = [];
    for (let i = 0; ids.length < 6; i++) if (hashed(`agent-${i}`) === 3) ids.push(`agent-${i}`);
    assignHues(ids);
    expect(new Set(ids.map(agentHue)).size).toBe(6);
    // and keep them: the same agents present again get the same hues
    const before = ids.map(agentHue);
    assignHues([...ids].reverse());
    expect(ids.map(agentHue)).toEqual(before);
  });

  it('an agent keeps its hue unless another present agent holds it; only past all hues do two share', () => {
    assignHues(['a1', 'a2']);
    const a2 = agentHue('a2');
    assignHues(['a2', 'a3']);
    expect(agentHue('a2')).toBe(a2);
    expect(agentHue('a3')).not.toBe(a2);
    const many = Array.from({ length: HUES.length }, (_, i) => `m${i}`);
    assignHues(many);
    expect(new Set(many.map(agentHue)).size).toBe(HUES.length);
  });
});

describe('auto-answer (opt-in)', () => {
  const rule = (fields: Partial<AutoRule>): AutoRule => ({
    id: 'r',
    agent: '*',
    kind: 'user_confirm',
    afterS: 30,
    reply: 'yes',
    ...fields,
  });

  it('answers an untouched card with the chosen reply once its time came', async () => {
    const { bodies, send } = recorder();
    // asked 31 s ago, the rule says after 30 s
    const ask = openAsk({
      kind: 'user_confirm',
      prompt: 'Run the linter?',
      createdAt: new Date(Date.now() - 31_000).toISOString(),
    });
    render(<Cards asks={[ask]} pages={[]} send={send} settleMs={0} autoRules={[rule({})]} />);
    await vi.waitFor(() => expect(bodies).toEqual([{ askId: ask.askId, action: 'answer', value: true }]));
  });

  it('says what it will answer and when; one press calls it off and nothing is sent', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
    const { bodies, send } = recorder();
    const ask = openAsk({
      kind: 'user_choose',
      prompt: 'Which?',
      choices: ['fast', 'safe'],
      createdAt: new Date().toISOString(),
    });
    const rules = [rule({ kind: 'user_choose', reply: 'safe', afterS: 20 })];
    render(<Cards asks={[ask]} pages={[]} send={send} settleMs={0} autoRules={rules} />);
    expect(screen.getByText('Answers “safe” by itself in 0:20')).toBeTruthy();
    act(() => vi.advanceTimersByTime(5_000));
    expect(screen.getByText('Answers “safe” by itself in 0:15')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Don’t answer by itself' }));
    expect(screen.queryByText(/by itself in/)).toBeNull();
    act(() => vi.advanceTimersByTime(30_000));
    expect(bodies).toEqual([]);
  });

  it('never for a page command, a multiple choice, or a reply the card cannot take', () => {
    const rules = [rule({ kind: 'user_choose', reply: 'nope' }), rule({ kind: 'user_confirm', reply: 'maybe' })];
    expect(ruleFor(rules, openAsk({ kind: 'user_choose', prompt: 'x', choices: ['a'] }))).toBeUndefined();
    expect(ruleFor(rules, openAsk({ kind: 'user_confirm', prompt: 'x' }))).toBeUndefined();
    expect(
      ruleFor(
        [rule({ kind: 'user_choose', reply: 'a' })],
        openAsk({ kind: 'user_choose', prompt: 'x', choices: ['a'], multiple: true }),
      ),
    ).toBeUndefined();
    const everything = (['user_confirm', 'user_choose', 'user_input', 'user_presence'] as const).map((kind) =>
      rule({ kind, reply: 'yes' }),
    );
    expect(
      ruleFor(
        everything,
        openAsk({ kind: 'page_command', prompt: 'x', command: { cmd: 'Runtime.evaluate', args: {} } }),
      ),
    ).toBeUndefined();
  });
});

describe('keyboard', () => {
  it('↓ gives the focus to the card the keys act on: an input card’s field, so typed letters land there', async () => {
    const confirm = openAsk({ kind: 'user_confirm', prompt: 'Deploy?' });
    const input = openAsk({ kind: 'user_input', prompt: 'Branch?' });
    render(<Cards asks={[confirm, input]} pages={[]} send={recorder().send} settleMs={0} />);
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('article', { name: 'Confirm from claude' }));
    await userEvent.keyboard('{ArrowDown}');
    const field = screen.getByRole('textbox', { name: 'answer' });
    expect(document.activeElement).toBe(field);
    await userEvent.keyboard('feat');
    expect((field as HTMLTextAreaElement).value).toBe('feat');
  });

  it('from a focused card the first Tab goes to the answer, not to Pause', async () => {
    const ask = openAsk({ kind: 'user_input', prompt: 'Branch?' });
    render(<AskCard ask={ask} send={recorder().send} settleMs={0} />);
    screen.getByRole('article').focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'answer' }));
  });

  it('options read as their words (no key number in the name), and a page command has one way to deny', () => {
    render(
      <AskCard
        ask={openAsk({
          kind: 'page_command',
          prompt: 'Run?',
          command: { cmd: 'Runtime.evaluate', args: { expression: '1' } },
        })}
        send={recorder().send}
        settleMs={0}
      />,
    );
    expect(screen.getByRole('button', { name: 'Deny' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Reject/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Allow once' })).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuetext')).toBe('1:00 left');
  });

  it('a presence card answers with its buttons only: no second Answer button', () => {
    render(<AskCard ask={openAsk({ kind: 'user_presence', prompt: 'There?' })} send={recorder().send} settleMs={0} />);
    expect(screen.getByRole('button', { name: 'I’m here' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Answer' })).toBeNull();
  });
});

describe('keys from mcp-feedback-enhanced, and Esc after saving a quick reply', () => {
  it('Ctrl+Enter answers from a multi-line answer field (Enter alone there too; Shift+Enter is a new line)', async () => {
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_input', prompt: 'Notes?' });
    render(<AskCard ask={ask} send={send} settleMs={0} />);
    await userEvent.click(screen.getByRole('textbox', { name: 'answer' }));
    await userEvent.keyboard('line one{Shift>}{Enter}{/Shift}line two{Control>}{Enter}{/Control}');
    expect(bodies).toEqual([{ askId: ask.askId, action: 'answer', value: 'line one\nline two' }]);
  });

  it('Ctrl+I puts the focus in the active card’s field, else the first card that has one', async () => {
    const confirm = openAsk({ kind: 'user_confirm', prompt: 'Deploy?' });
    const input = openAsk({ kind: 'user_input', prompt: 'Branch?' });
    render(<Cards asks={[confirm, input]} pages={[]} send={recorder().send} settleMs={0} />);
    expect(focusInput()).toBe(true);
    // the confirm card has a note field: with no card active, the first card's field takes it
    expect(document.activeElement).toBe(screen.getAllByRole('textbox', { name: 'note' })[0]);
    fireEvent.focus(screen.getByRole('article', { name: 'Input from claude' }));
    await vi.waitFor(() => expect(document.querySelector('.card.is-active')?.textContent).toContain('Branch?'));
    expect(focusInput()).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'answer' }));
  });

  it('Esc right after “Save as quick reply” closes the quick replies, and opens no reject panel', async () => {
    const saved: string[] = [];
    const book = {
      replies: [],
      of: () => [],
      add: async (_kind: string, text: string) => void saved.push(text),
      edit: async () => undefined,
      remove: async () => undefined,
      used: async () => undefined,
    };
    render(
      <QuickRepliesContext.Provider value={book}>
        <AskCard ask={openAsk({ kind: 'user_confirm', prompt: 'Ship?' })} send={recorder().send} settleMs={0} />
      </QuickRepliesContext.Provider>,
    );
    await userEvent.click(screen.getByRole('textbox', { name: 'note' }));
    await userEvent.keyboard('after the tests{Control>}.{/Control}');
    await userEvent.click(screen.getByRole('button', { name: 'Save as quick reply' }));
    await vi.waitFor(() => expect(saved).toEqual(['after the tests']));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('group', { name: 'reject' })).toBeNull();
  });
});

describe('offline and pairing', () => {
  it('the Pages panel says the state is unknown while the window has no bridge, with no green dot', () => {
    const row = {
      pageId: 'p1',
      frameId: 'main',
      url: 'http://localhost:5173/',
      title: 'App',
      active: true,
      operable: true,
      legacy: false,
      frameworks: [],
      lastSeen: new Date().toISOString(),
    };
    render(<PagesPanel pages={[row] as never} heldOrigins={[]} allow={async () => undefined} live={false} />);
    expect(screen.getByText('status unknown')).toBeTruthy();
    expect(screen.queryByText('1 connected')).toBeNull();
    expect(document.querySelector('.dot.on')).toBeNull();
  });

  it('a pairing code shows its time left, then says it expired and offers a new one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
    const code = (): PairingCodeAnswer => ({
      url: 'https://phone.example/aiti/ui/pair#code=x',
      qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>',
      expiresAt: new Date(Date.now() + 120_000).toISOString(),
    });
    let made = 0;
    const desk = {
      openPairing: async () => (made++, code()),
      devices: async () => ({ devices: [], pairings: [], agentTokens: [], remote: 'https://phone.example' }),
    } as unknown as DeskApi;
    publishDevices({ devices: [], pairings: [], agentTokens: [], remote: 'https://phone.example' } as never);
    render(<DevicesPanel desk={desk} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Pair a device' })));
    expect(screen.getByText('Good for 2:00 more, once.')).toBeTruthy();
    act(() => vi.advanceTimersByTime(61_000));
    expect(screen.getByText('Good for 0:59 more, once.')).toBeTruthy();
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText('This code expired unused.')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Make a new code' })));
    expect(made).toBe(2);
    expect(screen.getByText('Good for 2:00 more, once.')).toBeTruthy();
  });
});
