// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AskCard } from '../../renderer/src/cards/AskCard.js';
import { Cards } from '../../renderer/src/cards/Cards.js';
import { openAsk, recorder } from './fixtures.js';

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const countdown = () => screen.getByTestId('countdown').textContent;

describe('countdown', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance', 'Date'] });
  });

  it('runs down from the remainingMs the server sent, on the monotonic clock', () => {
    const ask = openAsk({ kind: 'user_confirm', prompt: 'Ship it?', remainingMs: 90_000 });
    render(<AskCard settleMs={0} ask={ask} send={recorder().send} />);
    expect(countdown()).toBe('1:30');
    act(() => vi.advanceTimersByTime(15_000));
    expect(countdown()).toBe('1:15');
    act(() => vi.advanceTimersByTime(74_000));
    expect(countdown()).toBe('0:01');
    act(() => vi.advanceTimersByTime(5_000));
    expect(countdown()).toBe('0:00');
  });

  it('stands still while paused and says so', () => {
    const ask = openAsk({ kind: 'user_confirm', prompt: 'Ship it?', remainingMs: 42_000, paused: true });
    render(<AskCard settleMs={0} ask={ask} send={recorder().send} />);
    expect(countdown()).toBe('paused · 0:42');
    act(() => vi.advanceTimersByTime(20_000));
    expect(countdown()).toBe('paused · 0:42');
    expect(screen.getByRole('button', { name: 'Resume' })).toBeTruthy();
  });

  it('resyncs to the server on an update (a resume restarts from the new remainingMs)', () => {
    const ask = openAsk({ kind: 'user_confirm', prompt: 'Ship it?', remainingMs: 60_000 });
    const { rerender } = render(<AskCard settleMs={0} ask={ask} send={recorder().send} />);
    act(() => vi.advanceTimersByTime(10_000));
    expect(countdown()).toBe('0:50');
    rerender(
      <AskCard
        settleMs={0}
        ask={{ ...ask, remainingMs: 48_000, receivedAt: performance.now() }}
        send={recorder().send}
      />,
    );
    expect(countdown()).toBe('0:48');
    act(() => vi.advanceTimersByTime(3_000));
    expect(countdown()).toBe('0:45');
  });

  it('keeps one speed on its bar through a pause: the fraction is of the full countdown', () => {
    const ask = { ...openAsk({ kind: 'user_confirm', prompt: 'Ship it?', remainingMs: 30_000 }), totalMs: 60_000 };
    render(<AskCard settleMs={0} ask={ask} send={recorder().send} />);
    expect(screen.getByRole('progressbar').firstElementChild?.getAttribute('style')).toContain('width: 50%');
  });
});

describe('pause and resume', () => {
  it('posts pause for a running countdown and resume for a paused one', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_input', prompt: 'Name?' });
    const { rerender } = render(<AskCard settleMs={0} ask={ask} send={send} />);
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    rerender(<AskCard settleMs={0} ask={{ ...ask, paused: true }} send={send} />);
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    expect(bodies).toEqual([
      { askId: ask.askId, action: 'pause' },
      { askId: ask.askId, action: 'resume' },
    ]);
  });
});

describe('every ask kind', () => {
  it('user_confirm: Yes with a note', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_confirm', prompt: 'Delete the old migrations?' });
    render(<AskCard settleMs={0} ask={ask} pageLabel={{ url: 'localhost:5173/admin' }} send={send} />);
    expect(screen.getByRole('article').textContent).toContain('claude');
    expect(screen.getByRole('article').textContent).toContain('localhost:5173/admin');
    await user.type(screen.getByLabelText('note'), 'keep the seed file');
    await user.click(screen.getByRole('button', { name: /Yes/ }));
    expect(bodies).toEqual([{ askId: ask.askId, action: 'answer', value: true, note: 'keep the seed file' }]);
  });

  it('user_confirm: No from the keyboard (N, then Enter)', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_confirm', prompt: 'Deploy?' });
    render(<AskCard settleMs={0} ask={ask} send={send} />);
    screen.getByRole('article').focus();
    await user.keyboard('n{Enter}');
    expect(bodies).toEqual([{ askId: ask.askId, action: 'answer', value: false }]);
  });

  it('user_choose single: a number picks, Enter answers with that label', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_choose', prompt: 'Which layout?', choices: ['Grid', 'List', 'Cards'] });
    render(<AskCard settleMs={0} ask={ask} send={send} />);
    screen.getByRole('article').focus();
    await user.keyboard('3');
    expect(screen.getByRole('button', { name: /Cards/ }).getAttribute('aria-pressed')).toBe('true');
    await user.keyboard('2{Enter}');
    expect(bodies).toEqual([{ askId: ask.askId, action: 'answer', value: 'List' }]);
  });

  it('user_choose multiple: numbers toggle, the answer keeps the order of the choices', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const ask = openAsk({
      kind: 'user_choose',
      prompt: 'Which browsers?',
      choices: ['Chrome', 'Firefox', 'Safari'],
      multiple: true,
    });
    render(<AskCard settleMs={0} ask={ask} send={send} />);
    screen.getByRole('article').focus();
    await user.keyboard('312');
    await user.keyboard('2');
    await user.click(screen.getByRole('button', { name: 'Answer' }));
    expect(bodies).toEqual([{ askId: ask.askId, action: 'answer', value: ['Chrome', 'Safari'] }]);
  });

  it('user_choose: Enter before any pick says what is missing and sends nothing', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    render(
      <AskCard settleMs={0} ask={openAsk({ kind: 'user_choose', prompt: 'Pick', choices: ['a', 'b'] })} send={send} />,
    );
    screen.getByRole('article').focus();
    await user.keyboard('{Enter}');
    expect(bodies).toEqual([]);
    expect(screen.getByRole('alert').textContent).toContain('pick an option first');
  });

  it('user_choose multiple: answering with nothing picked says so and sends nothing', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_choose', prompt: 'Which?', choices: ['a', 'b'], multiple: true });
    render(<AskCard settleMs={0} ask={ask} send={send} />);
    await user.click(screen.getByRole('button', { name: 'Answer' }));
    expect(bodies).toEqual([]);
    expect(screen.getByRole('alert').textContent).toContain('pick at least one');
  });

  it('user_input: the default is offered and Enter sends what is in the field', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_input', prompt: 'Branch name?', defaultValue: 'feature/login' });
    render(<AskCard settleMs={0} ask={ask} send={send} />);
    const field = screen.getByLabelText<HTMLTextAreaElement>('answer');
    expect(field.value).toBe('feature/login');
    await user.clear(field);
    await user.type(field, 'fix/logout{Enter}');
    expect(bodies).toEqual([{ askId: ask.askId, action: 'answer', value: 'fix/logout' }]);
  });

  it('user_input: Shift+Enter breaks the line instead of answering', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    render(<AskCard settleMs={0} ask={openAsk({ kind: 'user_input', prompt: 'Notes?' })} send={send} />);
    await user.type(screen.getByLabelText('answer'), 'one{Shift>}{Enter}{/Shift}two{Enter}');
    expect(bodies.map((b) => b.value)).toEqual(['one\ntwo']);
  });

  it('user_presence: present or away', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_presence', prompt: 'Still there?' });
    render(<AskCard settleMs={0} ask={ask} send={send} />);
    await user.click(screen.getByRole('button', { name: /Away/ }));
    screen.getByRole('article').focus();
    await user.keyboard('1{Enter}');
    expect(bodies).toEqual([
      { askId: ask.askId, action: 'answer', value: 'away' },
      { askId: ask.askId, action: 'answer', value: 'present' },
    ]);
  });

  it('page_command: shows the command; allow once, allow for this page, deny', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const ask = openAsk({
      kind: 'page_command',
      prompt: 'Run a script in localhost:3000?',
      command: { cmd: 'Runtime.evaluate', args: { expression: 'localStorage.clear()' } },
    });
    render(<AskCard settleMs={0} ask={ask} send={send} />);
    expect(screen.getByText('Runtime.evaluate')).toBeTruthy();
    expect(screen.getByRole('article').textContent).toContain('localStorage.clear()');
    await user.click(screen.getByRole('button', { name: /Allow once/ }));
    await user.click(screen.getByRole('button', { name: /Allow for this page/ }));
    await user.click(screen.getByRole('button', { name: /Deny/ }));
    expect(bodies).toEqual([
      { askId: ask.askId, action: 'answer', value: true },
      { askId: ask.askId, action: 'answer', value: true, remember: true },
      { askId: ask.askId, action: 'answer', value: false },
    ]);
  });

  it('user_pick_element: the answer comes from the page, the card offers reject only', () => {
    render(
      <AskCard
        ask={openAsk({ kind: 'user_pick_element', prompt: 'Click the broken button' })}
        send={recorder().send}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Answer' })).toBeNull();
    expect(screen.getByRole('button', { name: /Reject/ })).toBeTruthy();
    // no "↵ answer" hint where there is no answer to send
    expect(screen.getByRole('article').textContent).not.toContain('answer');
  });
});

describe('reject', () => {
  it('Esc opens reject with the focus in the reason box; ↓ goes to the presets, a number picks one, Enter sends it', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_confirm', prompt: 'Rewrite the router?' });
    render(<AskCard settleMs={0} ask={ask} send={send} />);
    screen.getByRole('article').focus();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('group', { name: 'reject' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('reason'));
    await user.keyboard('{ArrowDown}2{Enter}');
    expect(bodies).toEqual([{ askId: ask.askId, action: 'reject', reason: 'wrong_approach' }]);
  });

  it('Enter on a preset that has the focus sends that preset: the ring shows what goes', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_confirm', prompt: 'Rewrite the router?' });
    render(<AskCard settleMs={0} ask={ask} send={send} />);
    screen.getByRole('article').focus();
    await user.keyboard('{Escape}{ArrowDown}1');
    screen.getByRole('button', { name: /Need more info/ }).focus();
    await user.keyboard('{Enter}');
    expect(bodies).toEqual([{ askId: ask.askId, action: 'reject', reason: 'need_info' }]);
  });

  it('with the presets in focus, a digit marks that preset; a digit past them changes nothing', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_confirm', prompt: 'Rewrite the router?' });
    render(<AskCard settleMs={0} ask={ask} send={send} />);
    screen.getByRole('article').focus();
    await user.keyboard('{Escape}{ArrowDown}3');
    const marked = () => screen.getAllByRole('button', { pressed: true }).map((b) => b.textContent);
    expect(marked()).toEqual(['3 Need more info']);
    await user.keyboard('90');
    expect(marked()).toEqual(['3 Need more info']);
    await user.keyboard('{Enter}');
    expect(bodies).toEqual([{ askId: ask.askId, action: 'reject', reason: 'need_info' }]);
  });

  it('with the reject panel open, y and n pick nothing: the choices are hidden', async () => {
    const user = userEvent.setup();
    render(<AskCard settleMs={0} ask={openAsk({ kind: 'user_confirm', prompt: 'Ok?' })} send={recorder().send} />);
    screen.getByRole('article').focus();
    await user.keyboard('{Escape}{ArrowDown}y');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'reject' })).toBeNull();
    expect(screen.queryAllByRole('button', { pressed: true })).toEqual([]);
  });

  it('offers the four presets', async () => {
    const user = userEvent.setup();
    render(<AskCard settleMs={0} ask={openAsk({ kind: 'user_input', prompt: 'x' })} send={recorder().send} />);
    await user.click(screen.getByRole('button', { name: 'Reject…' }));
    const labels = screen.getAllByRole('button', { pressed: false }).map((b) => b.textContent?.replace(/^\d\s*/, ''));
    expect(labels).toEqual(['Not now', 'Wrong approach', 'Need more info', 'Stop the task']);
  });

  it('a preset carries the written reason as a note', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_choose', prompt: 'Which?', choices: ['a'] });
    render(<AskCard settleMs={0} ask={ask} send={send} />);
    await user.click(screen.getByRole('button', { name: 'Reject…' }));
    await user.click(screen.getByRole('button', { name: /Need more info/ }));
    await user.type(screen.getByLabelText('reason'), 'which page do you mean?{Enter}');
    expect(bodies).toEqual([
      { askId: ask.askId, action: 'reject', reason: 'need_info', note: 'which page do you mean?' },
    ]);
  });

  it('a reason of my own alone is sent as "other"', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_confirm', prompt: 'Ok?' });
    render(<AskCard settleMs={0} ask={ask} send={send} />);
    await user.click(screen.getByRole('button', { name: 'Reject…' }));
    await user.type(screen.getByLabelText('reason'), 'use the staging database{Enter}');
    expect(bodies).toEqual([{ askId: ask.askId, action: 'reject', reason: 'other', note: 'use the staging database' }]);
  });

  it('Esc again goes back to the answer', async () => {
    const user = userEvent.setup();
    render(<AskCard settleMs={0} ask={openAsk({ kind: 'user_confirm', prompt: 'Ok?' })} send={recorder().send} />);
    screen.getByRole('article').focus();
    await user.keyboard('{Escape}');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'reject' })).toBeNull();
  });

  it('shows the bridge refusing an answer', async () => {
    const user = userEvent.setup();
    const send = async () => {
      throw new Error('/bridge/answer answered 409: ask a1 already ended (timed_out)');
    };
    render(<AskCard settleMs={0} ask={openAsk({ kind: 'user_confirm', prompt: 'Ok?' })} send={send} />);
    await user.click(screen.getByRole('button', { name: /Yes/ }));
    expect(screen.getByRole('alert').textContent).toContain('already ended');
  });
});

describe('the list of cards', () => {
  it('keys pressed outside every card go to the active card only; with none active, the first key selects one', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const older = openAsk({ kind: 'user_choose', prompt: 'Older question', choices: ['x', 'y'] });
    const newer = openAsk({
      kind: 'user_choose',
      prompt: 'Newer question',
      choices: ['left', 'right'],
      agentId: 'cursor',
    });
    const { rerender } = render(<Cards settleMs={0} asks={[older]} pages={[]} send={send} />);
    // Enter with no card active only selects the first card: nothing is answered unseen
    await user.keyboard('{Enter}');
    expect(bodies).toEqual([]);
    const [first] = screen.getAllByRole('article');
    expect(first?.getAttribute('aria-current')).toBe('true');
    await user.keyboard('2');
    // a new card arrives: it joins at the end and does not take the keys
    rerender(<Cards settleMs={0} asks={[older, newer]} pages={[]} send={send} />);
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual([
      'Choose from claude',
      'Choose from cursor',
    ]);
    await user.keyboard('{Enter}');
    expect(bodies).toEqual([{ askId: older.askId, action: 'answer', value: 'y' }]);
    // ↓ moves the active mark to the next card
    await user.keyboard('{ArrowDown}1{Enter}');
    expect(bodies[1]).toEqual({ askId: newer.askId, action: 'answer', value: 'left' });
  });

  it('a card that just arrived does not take keys until it has been on screen for a moment', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_confirm', prompt: 'Just arrived' });
    render(<Cards settleMs={1000} asks={[ask]} pages={[]} send={send} />);
    fireEvent.keyDown(document.body, { key: '1' });
    expect(screen.getByRole('article').getAttribute('aria-current')).toBeNull();
    act(() => vi.advanceTimersByTime(1000));
    fireEvent.keyDown(document.body, { key: '1' });
    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(bodies).toEqual([{ askId: ask.askId, action: 'answer', value: true }]);
  });

  it('a digit pressed on a card that just arrived picks nothing, even with the card clicked; once read, it picks', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const user = userEvent.setup();
    const ask = openAsk({ kind: 'user_choose', prompt: 'Which layout?', choices: ['Grid', 'List', 'Cards'] });
    render(<AskCard ask={ask} send={recorder().send} />);
    await user.click(screen.getByRole('article'));
    await user.keyboard('2');
    expect(screen.queryAllByRole('button', { pressed: true })).toHaveLength(0);
    act(() => vi.advanceTimersByTime(1000));
    await user.keyboard('2');
    expect(screen.getByRole('button', { name: /List/ }).getAttribute('aria-pressed')).toBe('true');
  });

  it('past nine choices, digits add up (2, 3, Enter sends choice 23) and a filter box narrows the list', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const choices = Array.from({ length: 30 }, (_, i) => `option ${i + 1}`);
    const ask = openAsk({ kind: 'user_choose', prompt: 'Which one?', choices });
    render(<AskCard settleMs={0} ask={ask} send={send} />);
    screen.getByRole('article').focus();
    await user.keyboard('23{Enter}');
    expect(bodies).toEqual([{ askId: ask.askId, action: 'answer', value: 'option 23' }]);
    await user.type(screen.getByLabelText('filter choices'), 'option 7');
    expect(screen.getAllByRole('button', { name: /option/ }).map((b) => b.textContent)).toEqual(['7option 7']);
  });

  it('an error goes away once the draft changes', async () => {
    const user = userEvent.setup();
    render(
      <AskCard
        settleMs={0}
        ask={openAsk({ kind: 'user_choose', prompt: 'Pick', choices: ['a', 'b'] })}
        send={recorder().send}
      />,
    );
    screen.getByRole('article').focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert').textContent).toContain('pick an option first');
    await user.keyboard('1');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('renders markdown as elements: code is monospaced, raw HTML stays text, long prompts fold', async () => {
    const user = userEvent.setup();
    const prompt = `Run \`npm test\`?\n\n\`\`\`sh\nnpm ci\n\`\`\`\n\n<img src=x onerror="alert(1)">\n\n${'long '.repeat(200)}`;
    render(<AskCard settleMs={0} ask={openAsk({ kind: 'user_confirm', prompt })} send={recorder().send} />);
    const card = screen.getByRole('article');
    expect(card.querySelector('code')?.textContent).toBe('npm test');
    expect(card.querySelector('pre.md-code')?.textContent).toBe('npm ci');
    expect(card.querySelector('img')).toBeNull();
    expect(card.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(card.querySelector('.prompt.folded')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: /Show all/ }));
    expect(card.querySelector('.prompt.folded')).toBeNull();
  });

  it('keeps a draft across a reload, and a new card never takes it over', async () => {
    const user = userEvent.setup();
    const mine = openAsk({ kind: 'user_input', prompt: 'Commit message?' });
    const { unmount } = render(<Cards settleMs={0} asks={[mine]} pages={[]} send={recorder().send} />);
    await user.clear(screen.getByLabelText('answer'));
    await user.type(screen.getByLabelText('answer'), 'half-writ');
    unmount(); // a reload: the component tree goes, sessionStorage stays

    const arriving = openAsk({ kind: 'user_input', prompt: 'Tag name?' });
    render(<Cards settleMs={0} asks={[arriving, mine]} pages={[]} send={recorder().send} />);
    const [newField, oldField] = screen.getAllByLabelText<HTMLTextAreaElement>('answer');
    expect(newField?.value).toBe('');
    expect(oldField?.value).toBe('half-writ');
    await user.type(screen.getAllByLabelText('answer')[1] as HTMLElement, 'ten');
    expect(oldField?.value).toBe('half-written');
    expect(document.activeElement).toBe(oldField);
  });

  it('typing digits in a text field types them, it does not pick', async () => {
    const user = userEvent.setup();
    const { bodies, send } = recorder();
    const choose = openAsk({ kind: 'user_choose', prompt: 'Pick', choices: ['a', 'b'] });
    render(<Cards settleMs={0} asks={[choose]} pages={[]} send={send} />);
    await user.type(screen.getByLabelText('note'), '12');
    expect(screen.getByLabelText<HTMLInputElement>('note').value).toBe('12');
    expect(screen.queryAllByRole('button', { pressed: true })).toHaveLength(0);
    fireEvent.keyDown(document.body, { key: '1' });
    expect(screen.getByRole('button', { name: /a$/ }).getAttribute('aria-pressed')).toBe('true');
    expect(bodies).toEqual([]);
  });
});
