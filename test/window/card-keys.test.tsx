// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AskCard } from '../../renderer/src/cards/AskCard.js';
import { Cards } from '../../renderer/src/cards/Cards.js';
import type { OpenAsk } from '../../renderer/src/store.js';
import { openAsk, recorder } from './fixtures.js';

/**
 * What a key does on the cards, pressed as a hurried person presses it: with a modifier held, in a field or a
 * dialog elsewhere in the window, before the card could be read, a number of several digits. Judged by what is
 * picked (aria-pressed), what is sent, and what the card says.
 */

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** The choices picked, as their buttons read without the check mark: '2b' is choice 2, "b". */
const pressed = () =>
  screen.queryAllByRole('button', { pressed: true }).map((b) => (b.textContent ?? '').replace(/[☑☐]/g, ''));
const choices = (count: number) => Array.from({ length: count }, (_, i) => `option ${i + 1}`);

/** A card that takes keys at once, focused as when the human clicked it; what it posts lands in `bodies`. */
function focusedCard(ask: OpenAsk) {
  const user = userEvent.setup();
  const { bodies, send } = recorder();
  render(<AskCard settleMs={0} ask={ask} send={send} />);
  screen.getByRole('article').focus();
  return { user, bodies };
}

describe('keys with a modifier held belong to the system, not to the cards', () => {
  it('Ctrl, Alt or ⌘ with a digit or Enter picks and sends nothing, on the card and outside it', async () => {
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_choose', prompt: 'Which?', choices: ['a', 'b'] });
    render(<Cards settleMs={0} asks={[ask]} pages={[]} send={send} />);
    const card = screen.getByRole('article');
    for (const modifier of [{ ctrlKey: true }, { altKey: true }, { metaKey: true }]) {
      fireEvent.keyDown(document.body, { key: '1', ...modifier });
      fireEvent.keyDown(card, { key: '2', ...modifier });
      fireEvent.keyDown(card, { key: 'Enter', ...modifier });
    }
    expect(pressed()).toEqual([]);
    expect(card.getAttribute('aria-current')).toBeNull();
    expect(bodies).toEqual([]);
    // the same keys bare do act
    fireEvent.keyDown(card, { key: '2' });
    expect(pressed()).toEqual(['2b']);
  });

  it('Ctrl+. opens the quick replies of the note; on a card without a text field it does nothing', async () => {
    const user = userEvent.setup();
    const choose = openAsk({ kind: 'user_choose', prompt: 'Which?', choices: ['a', 'b'] });
    const { unmount } = render(<AskCard settleMs={0} ask={choose} send={recorder().send} />);
    await user.click(screen.getByLabelText('note'));
    await user.keyboard('{Control>}.{/Control}');
    expect(screen.getByRole('dialog')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    // ⌘. on a Mac
    await user.click(screen.getByLabelText('note'));
    await user.keyboard('{Meta>}.{/Meta}');
    expect(screen.getByRole('dialog')).toBeTruthy();
    unmount();
    const presence = openAsk({ kind: 'user_presence', prompt: 'Still there?' });
    render(<AskCard settleMs={0} ask={presence} send={recorder().send} />);
    screen.getByRole('article').focus();
    await user.keyboard('{Control>}.{/Control}');
    expect(screen.queryByRole('dialog')).toBeNull();
    // a bare dot is no shortcut
    await user.keyboard('.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('Shift and the dot are no modifiers to the cards', () => {
  it('Shift with a digit or a letter still acts: on a French keyboard the main-row digits need Shift', () => {
    const choose = openAsk({ kind: 'user_choose', prompt: 'Which?', choices: ['a', 'b'] });
    const { unmount } = render(<AskCard settleMs={0} ask={choose} send={recorder().send} />);
    // AZERTY: the key marked "é 2" gives 2 with Shift held
    fireEvent.keyDown(screen.getByRole('article'), { key: '2', shiftKey: true });
    expect(pressed()).toEqual(['2b']);
    unmount();
    render(<AskCard settleMs={0} ask={openAsk({ kind: 'user_confirm', prompt: 'Ship it?' })} send={recorder().send} />);
    fireEvent.keyDown(screen.getByRole('article'), { key: 'N', shiftKey: true });
    expect(pressed()).toEqual(['2No']);
  });

  it('a dot typed in the note is a dot: only Ctrl+. or ⌘. opens the quick replies', async () => {
    const user = userEvent.setup();
    const ask = openAsk({ kind: 'user_choose', prompt: 'Which?', choices: ['a', 'b'] });
    render(<AskCard settleMs={0} ask={ask} send={recorder().send} />);
    await user.type(screen.getByLabelText('note'), 'v1.2 is fine.');
    expect(screen.getByLabelText<HTMLInputElement>('note').value).toBe('v1.2 is fine.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('keys pressed outside every card', () => {
  it('in a text field, an editable area, a form or a dialog elsewhere in the window they stay there', () => {
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_choose', prompt: 'Which?', choices: ['a', 'b'] });
    render(
      <>
        <div contentEditable suppressContentEditableWarning data-testid="editor" />
        <textarea aria-label="composer" />
        <select aria-label="agent">
          <option>claude</option>
        </select>
        <form>
          <span data-testid="in-form" tabIndex={0} />
        </form>
        <div role="dialog">
          <span data-testid="in-dialog" tabIndex={0} />
        </div>
        <Cards settleMs={0} asks={[ask]} pages={[]} send={send} />
      </>,
    );
    // jsdom does not compute isContentEditable; a browser reports true for this element
    Object.defineProperty(screen.getByTestId('editor'), 'isContentEditable', { value: true });
    const targets = [
      screen.getByTestId('editor'),
      screen.getByLabelText('composer'),
      screen.getByLabelText('agent'),
      screen.getByTestId('in-form'),
      screen.getByTestId('in-dialog'),
    ];
    for (const target of targets) {
      fireEvent.keyDown(target, { key: '1' });
      fireEvent.keyDown(target, { key: 'Enter' });
    }
    expect(screen.getByRole('article').getAttribute('aria-current')).toBeNull();
    expect(pressed()).toEqual([]);
    expect(bodies).toEqual([]);
  });

  it('Enter or Space on a button outside the cards presses that button; a digit there still reaches the card', () => {
    const ask = openAsk({ kind: 'user_choose', prompt: 'Which?', choices: ['a', 'b'] });
    render(
      <>
        <button type="button">Settings</button>
        <Cards settleMs={0} asks={[ask]} pages={[]} send={recorder().send} />
      </>,
    );
    const button = screen.getByRole('button', { name: 'Settings' });
    fireEvent.keyDown(button, { key: 'Enter' });
    expect(screen.getByRole('article').getAttribute('aria-current')).toBeNull();
    fireEvent.keyDown(button, { key: '2' });
    expect(screen.getByRole('article').getAttribute('aria-current')).toBe('true');
    expect(pressed()).toEqual(['2b']);
  });

  it('on a checkbox, radio or button input, or with nothing focused, a digit still reaches the card', () => {
    const ask = openAsk({ kind: 'user_choose', prompt: 'Which?', choices: ['a', 'b', 'c', 'd', 'e'], multiple: true });
    render(
      <>
        {['checkbox', 'radio', 'button', 'submit'].map((type) => (
          <input key={type} type={type} aria-label={type} />
        ))}
        <Cards settleMs={0} asks={[ask]} pages={[]} send={recorder().send} />
      </>,
    );
    fireEvent.keyDown(document, { key: '1' });
    ['checkbox', 'radio', 'button', 'submit'].forEach((type, i) =>
      fireEvent.keyDown(screen.getByLabelText(type), { key: String(i + 2) }),
    );
    expect(pressed()).toEqual(['1a', '2b', '3c', '4d', '5e']);
  });

  it('Enter with no card active only marks the first: the answer ready on it is not sent unseen', () => {
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_input', prompt: 'Branch name?', defaultValue: 'feature/login' });
    render(<Cards settleMs={0} asks={[ask]} pages={[]} send={send} />);
    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(screen.getByRole('article').getAttribute('aria-current')).toBe('true');
    expect(bodies).toEqual([]);
    // now the human sees which card it is: the next Enter answers it
    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(bodies).toEqual([{ askId: ask.askId, action: 'answer', value: 'feature/login' }]);
  });

  it('↑ and ↓ move the active card and stop at the ends; with no cards they do nothing', () => {
    const asks = ['first', 'second', 'third'].map((prompt) =>
      openAsk({ kind: 'user_choose', prompt, choices: ['a', 'b'] }),
    );
    const { rerender } = render(<Cards settleMs={0} asks={asks} pages={[]} send={recorder().send} />);
    const current = () =>
      screen
        .getAllByRole('article')
        .map((a, i) => (a.getAttribute('aria-current') === 'true' ? i : -1))
        .filter((i) => i >= 0);
    const key = (name: string) => fireEvent.keyDown(document.body, { key: name });
    key('ArrowDown');
    expect(current()).toEqual([0]);
    key('ArrowDown');
    key('ArrowDown');
    key('ArrowDown');
    expect(current()).toEqual([2]);
    key('ArrowUp');
    expect(current()).toEqual([1]);
    key('ArrowUp');
    key('ArrowUp');
    expect(current()).toEqual([0]);
    // the arrows scroll the page as usual when there is nothing to move between
    rerender(<Cards settleMs={0} asks={[]} pages={[]} send={recorder().send} />);
    expect(fireEvent.keyDown(document.body, { key: 'ArrowDown' })).toBe(true);
  });

  it('with none active, the first key goes to the first card that has been on screen long enough', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    // the window has been open a minute: when a card arrived is not near the clock's zero
    act(() => vi.advanceTimersByTime(60_000));
    const { bodies, send } = recorder();
    const older = openAsk({ kind: 'user_choose', prompt: 'Older', choices: ['a', 'b'] });
    const { rerender } = render(<Cards settleMs={1000} asks={[older]} pages={[]} send={send} />);
    act(() => vi.advanceTimersByTime(1000));
    const newer = openAsk({ kind: 'user_choose', prompt: 'Newer', choices: ['c', 'd'] });
    rerender(<Cards settleMs={1000} asks={[newer, older]} pages={[]} send={send} />);
    fireEvent.keyDown(document.body, { key: '2' });
    const [first, second] = screen.getAllByRole('article');
    expect(first?.getAttribute('aria-current')).toBeNull();
    expect(second?.getAttribute('aria-current')).toBe('true');
    expect(pressed()).toEqual(['2b']);
    expect(bodies).toEqual([]);
  });
});

describe('a card that just arrived', () => {
  it('says it is settling, then ready; with no settle time it is ready at once', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const ask = openAsk({ kind: 'user_confirm', prompt: 'Ship it?' });
    const { unmount } = render(<AskCard settleMs={1000} ask={ask} send={recorder().send} />);
    const card = () => screen.getByRole('article');
    expect(card().dataset.keys).toBe('settling');
    act(() => vi.advanceTimersByTime(999));
    expect(card().dataset.keys).toBe('settling');
    act(() => vi.advanceTimersByTime(1));
    expect(card().dataset.keys).toBe('ready');
    unmount();
    render(<AskCard settleMs={0} ask={openAsk({ kind: 'user_confirm', prompt: 'Now?' })} send={recorder().send} />);
    expect(card().dataset.keys).toBe('ready');
  });

  it('Enter before it settled sends nothing and says why; y and a digit pick nothing', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    // the window has been open an hour: the card's arrival is not at the clock's zero
    act(() => vi.advanceTimersByTime(3_600_000));
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_confirm', prompt: 'Ship it?' });
    render(<AskCard settleMs={1000} ask={ask} send={send} />);
    const card = screen.getByRole('article');
    fireEvent.keyDown(card, { key: 'y' });
    fireEvent.keyDown(card, { key: '1' });
    fireEvent.keyDown(card, { key: 'Enter' });
    expect(bodies).toEqual([]);
    expect(screen.getByRole('alert').textContent).toBe('This card just arrived: read it, then press Enter again.');
    expect(pressed()).toEqual([]);
    act(() => vi.advanceTimersByTime(1000));
    fireEvent.keyDown(card, { key: 'y' });
    fireEvent.keyDown(card, { key: 'Enter' });
    expect(bodies).toEqual([{ askId: ask.askId, action: 'answer', value: true }]);
  });
});

describe('a card scrolled out of view', () => {
  /**
   * jsdom lays nothing out: the card is put where a browser would have it, below the window's bottom edge, and
   * bringing it into view moves it up, as scrolling the list does.
   */
  const belowTheWindow = (card: HTMLElement) => {
    let top = window.innerHeight + 500;
    card.getBoundingClientRect = () => new DOMRect(0, top, 400, 300);
    card.scrollIntoView = () => {
      top = 100;
    };
  };

  it('a key on it brings it back and does nothing else; the next key acts', () => {
    const { bodies, send } = recorder();
    render(<AskCard settleMs={0} ask={openAsk({ kind: 'user_confirm', prompt: 'Ship it?' })} send={send} />);
    const card = screen.getByRole('article');
    belowTheWindow(card);
    fireEvent.keyDown(card, { key: 'y' });
    expect(pressed()).toEqual([]);
    expect(screen.getByRole('alert').textContent).toBe(
      'This card was out of view: it is shown now. Press the key again to act on it.',
    );
    expect(card.getBoundingClientRect().bottom).toBeLessThan(window.innerHeight);
    fireEvent.keyDown(card, { key: 'y' });
    expect(pressed()).toEqual(['1Yes']);
    expect(bodies).toEqual([]);
  });
});

describe('letters and buttons on a card', () => {
  it('p pauses the countdown and picks nothing', async () => {
    const ask = openAsk({ kind: 'user_confirm', prompt: 'Ship it?' });
    const { user, bodies } = focusedCard(ask);
    await user.keyboard('p');
    expect(bodies).toEqual([{ askId: ask.askId, action: 'pause' }]);
    expect(pressed()).toEqual([]);
  });

  it('a stray y or n on a choice card leaves its picks alone', () => {
    const ask = openAsk({ kind: 'user_choose', prompt: 'Which?', choices: ['a', 'b', 'c'], multiple: true });
    render(<AskCard settleMs={0} ask={ask} send={recorder().send} />);
    for (const key of ['1', '3', 'y', 'n']) fireEvent.keyDown(screen.getByRole('article'), { key });
    expect(pressed()).toEqual(['1a', '3c']);
  });

  it('Enter on a button of the card presses that button: Pause pauses, Reject… opens reject; nothing is answered', async () => {
    const ask = openAsk({ kind: 'user_confirm', prompt: 'Ship it?' });
    const { user, bodies } = focusedCard(ask);
    await user.keyboard('y');
    screen.getByRole('button', { name: 'Pause' }).focus();
    await user.keyboard('{Enter}');
    expect(bodies).toEqual([{ askId: ask.askId, action: 'pause' }]);
    screen.getByRole('button', { name: 'Reject…' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('group', { name: 'reject' })).toBeTruthy();
    expect(bodies).toEqual([{ askId: ask.askId, action: 'pause' }]);
  });

  it('a page command takes no key: Enter sends nothing and says to use a button, a digit picks nothing', () => {
    const { bodies, send } = recorder();
    const ask = openAsk({
      kind: 'page_command',
      prompt: 'Run a script in localhost:3000?',
      command: { cmd: 'Runtime.evaluate', args: { expression: 'localStorage.clear()' } },
    });
    render(<AskCard settleMs={0} ask={ask} send={send} />);
    const card = screen.getByRole('article');
    fireEvent.keyDown(card, { key: '1' });
    fireEvent.keyDown(card, { key: 'Enter' });
    expect(bodies).toEqual([]);
    expect(pressed()).toEqual([]);
    expect(screen.getByRole('alert').textContent).toBe(
      'Choose with a button: Allow once, Allow for this page, or Deny.',
    );
  });
});

describe('numbers typed on a card', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });

  const card = (count: number, multiple = true) => {
    const { bodies, send } = recorder();
    const ask = openAsk({ kind: 'user_choose', prompt: 'Which?', choices: choices(count), multiple });
    render(<AskCard settleMs={0} ask={ask} send={send} />);
    const press = (...keys: string[]) => {
      for (const key of keys) fireEvent.keyDown(screen.getByRole('article'), { key });
    };
    return { ask, bodies, press };
  };

  it('0 alone is no choice; a digit past the last choice picks nothing', () => {
    const { press } = card(3);
    press('0');
    // no "Choice 0…, type the next digit" waits for more
    expect(screen.queryByText(/type the next digit/)).toBeNull();
    press('4', '9');
    expect(pressed()).toEqual([]);
    expect(screen.queryByText(/type the next digit/)).toBeNull();
  });

  it('of 12 choices: 1 waits for a second digit, 1 then 2 picks 12, 1 then 5 picks 1 and 5', () => {
    const { press } = card(12);
    press('1');
    expect(pressed()).toEqual([]);
    press('2');
    expect(pressed()).toEqual(['12option 12']);
    expect(screen.queryByText(/type the next digit/)).toBeNull();
    press('1', '5');
    expect(pressed()).toEqual(['1option 1', '5option 5', '12option 12']);
  });

  it('of 3 choices: a digit picks at once and nothing waits for more', () => {
    const { press } = card(3);
    press('2');
    expect(pressed()).toEqual(['2option 2']);
    expect(screen.queryByText(/type the next digit/)).toBeNull();
  });

  it('of 10 choices: 1 then 0 picks 10 at once, with no pause', () => {
    const { press } = card(10);
    press('1', '0');
    expect(pressed()).toEqual(['10option 10']);
  });

  it('a pause completes a number that could still grow: 1 of 12 picks 1 after the pause, not before', () => {
    const { press } = card(12);
    press('1');
    act(() => vi.advanceTimersByTime(799));
    expect(pressed()).toEqual([]);
    act(() => vi.advanceTimersByTime(1));
    expect(pressed()).toEqual(['1option 1']);
    expect(screen.queryByText(/type the next digit/)).toBeNull();
  });

  it('of 120 choices: 1 then 2 waits for a third digit, 0 then picks 120; 1, 2 and a pause picks 12', () => {
    const { press } = card(120);
    press('1', '2');
    expect(pressed()).toEqual([]);
    expect(screen.getByText(/type the next digit/).closest('p')?.textContent).toContain('Choice 12…');
    press('0');
    expect(pressed()).toEqual(['120option 120']);
    press('1', '2');
    act(() => vi.advanceTimersByTime(800));
    expect(pressed()).toEqual(['12option 12', '120option 120']);
  });

  it('a key that picks nothing leaves the card saying what is missing', () => {
    const { bodies, press } = card(3, false);
    press('Enter');
    const missing = screen.getByRole('alert').textContent;
    expect(missing).toContain('pick an option first');
    // 0 is no choice, 4 is past the last one
    press('0', '4');
    expect(screen.getByRole('alert').textContent).toBe(missing);
    press('2');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(bodies).toEqual([]);
  });

  it('Enter counts the number being typed: 1, Enter on 12 choices sends choice 1', () => {
    const { ask, bodies, press } = card(12, false);
    press('1', 'Enter');
    expect(bodies).toEqual([{ askId: ask.askId, action: 'answer', value: 'option 1' }]);
  });

  it('a number the filter hides is not picked and the card says so', async () => {
    vi.useRealTimers();
    const user = userEvent.setup();
    const { press } = card(30);
    await user.type(screen.getByLabelText('filter choices'), 'option 7');
    screen.getByRole('article').focus();
    press('5');
    expect(pressed()).toEqual([]);
    expect(screen.getByRole('alert').textContent).toBe(
      'Choice 5 is hidden by the filter: clear the filter to pick it by number.',
    );
    // the last choice too
    press('3', '0');
    expect(screen.getByRole('alert').textContent).toBe(
      'Choice 30 is hidden by the filter: clear the filter to pick it by number.',
    );
    // nothing was picked out of sight: with the filter cleared, no choice is marked
    await user.clear(screen.getByLabelText('filter choices'));
    expect(pressed()).toEqual([]);
  });

  it('Enter with a number the filter hides still being typed sends nothing and says why', async () => {
    vi.useRealTimers();
    const user = userEvent.setup();
    const { bodies, press } = card(30, false);
    await user.type(screen.getByLabelText('filter choices'), 'option 7');
    screen.getByRole('article').focus();
    press('2', 'Enter');
    expect(bodies).toEqual([]);
    expect(screen.getByRole('alert').textContent).toBe(
      'Choice 2 is hidden by the filter: clear the filter to pick it by number.',
    );
  });
});
