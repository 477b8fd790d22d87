import { useState } from 'react';
import type { OpenAsk } from '../store.js';
import type { AskOption } from './options.js';

/** Past this many choices a card gets a filter box, and numbers are typed digit by digit (2, 3 → 23). */
export const MANY_CHOICES = 9;

/**
 * The number typed so far after one more digit: appended when the longer number is still a choice (2 then 3
 * is 23 of 30), else the digit starts a new number (2 then 3 is 3 of 20).
 */
export function nextNumber(typed: string, digit: number, count: number): string {
  const longer = `${typed}${digit}`;
  return typed && Number(longer) <= count ? longer : String(digit);
}

interface ChoicesProps {
  ask: OpenAsk;
  options: AskOption[];
  picked: readonly string[];
  many: boolean;
  /** number keys pick (false for a page command: buttons only) */
  keys: boolean;
  /** a click answers at once (yes/no, presence, page command) instead of picking */
  immediate: boolean;
  onChoose(option: AskOption): void;
}

/** The options of a card; a filter box above them when there are many. Numbers stay those of the full list. */
export function Choices({ ask, options, picked, many, keys, immediate, onChoose }: ChoicesProps) {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = options
    .map((option, i) => ({ option, number: i + 1 }))
    .filter(({ option }) => !needle || option.label.toLowerCase().includes(needle));
  return (
    <>
      {many && (
        <input
          className="field choice-filter"
          type="search"
          aria-label="filter choices"
          placeholder={`Filter ${options.length} choices`}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      )}
      <div
        className={`options${ask.kind === 'user_choose' ? ' choices' : ''}${many ? ' many' : ''}`}
        role="group"
        aria-label="options"
      >
        {shown.map(({ option, number }) => (
          <button
            key={option.key}
            type="button"
            className={`option${option.tone ? ` ${option.tone}` : ''}`}
            aria-pressed={picked.includes(option.key)}
            {...(immediate ? { 'data-action': true } : {})}
            onClick={() => onChoose(option)}
          >
            {keys && <kbd>{number}</kbd>}
            {ask.kind === 'user_choose' && ask.multiple && (
              <span className="check" aria-hidden>
                {picked.includes(option.key) ? '☑' : '☐'}
              </span>
            )}
            <span className="option-label">{option.label}</span>
          </button>
        ))}
        {shown.length === 0 && <p className="muted">No choice contains “{filter.trim()}”.</p>}
      </div>
    </>
  );
}
