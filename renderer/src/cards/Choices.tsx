import { useT } from '../i18n/index.js';
import type { OpenAsk } from '../store.js';
import type { AskOption } from './options.js';

/** Past this many choices a card gets a filter box, and numbers are typed digit by digit (2, 3 → 23). */
export const MANY_CHOICES = 9;

/** The options (with their numbers in the full list) whose label contains the filter's text. */
export function filtered(options: AskOption[], filter: string): Array<{ option: AskOption; number: number }> {
  const needle = filter.trim().toLowerCase();
  return options
    .map((option, i) => ({ option, number: i + 1 }))
    .filter(({ option }) => !needle || option.label.toLowerCase().includes(needle));
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
  filter: string;
  onFilter(filter: string): void;
  /** no bridge: an option that answers at once cannot be clicked (picking one of many still can) */
  offline?: boolean;
}

/** The options of a card; a filter box above them when there are many. Numbers stay those of the full list. */
export function Choices(props: ChoicesProps) {
  const { ask, options, picked, many, keys, immediate, onChoose, filter, onFilter, offline = false } = props;
  const words = useT().cards;
  const shown = filtered(options, filter);
  return (
    <>
      {many && (
        <input
          className="field choice-filter"
          type="search"
          aria-label={words.filterField}
          placeholder={words.filterPlaceholder(options.length)}
          value={filter}
          onChange={(e) => onFilter(e.target.value)}
        />
      )}
      <div
        className={`options${ask.kind === 'user_choose' ? ' choices' : ''}${many ? ' many' : ''}`}
        role="group"
        aria-label={words.options}
      >
        {shown.map(({ option, number }) => (
          <button
            key={option.key}
            type="button"
            className={`option${option.tone ? ` ${option.tone}` : ''}`}
            aria-pressed={picked.includes(option.key)}
            disabled={offline && immediate}
            {...(immediate ? { 'data-action': true } : {})}
            onClick={() => onChoose(option)}
          >
            {keys && <kbd aria-hidden>{number}</kbd>}
            {ask.kind === 'user_choose' && ask.multiple && (
              <span className="check" aria-hidden>
                {picked.includes(option.key) ? '☑' : '☐'}
              </span>
            )}
            <span className="option-label">{option.label}</span>
          </button>
        ))}
        {shown.length === 0 && <p className="muted">{words.noMatch(filter.trim())}</p>}
      </div>
    </>
  );
}
