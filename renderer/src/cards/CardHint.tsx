import { useT } from '../i18n/index.js';

/** The keys a card takes, as a line beside its buttons. */
export function CardHint(props: { explicitOnly: boolean; options: number; many: boolean; answerable: boolean }) {
  const words = useT().cards.hint;
  const { explicitOnly, options, many, answerable } = props;
  return (
    <span className="hint keys-hint" aria-hidden>
      {explicitOnly ? (
        <>{words.explicit} · </>
      ) : (
        options > 0 && (
          <>
            <kbd>1</kbd>–<kbd>{options}</kbd> {many ? words.many : words.pick} ·{' '}
          </>
        )
      )}
      {answerable && (
        <>
          <kbd>↵</kbd> {words.answer} ·{' '}
        </>
      )}
      <kbd>Esc</kbd> {words.reject}
    </span>
  );
}
