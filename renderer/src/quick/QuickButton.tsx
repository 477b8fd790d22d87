import { useT } from '../i18n/index.js';

/** ⚡: opens the quick replies of a card's field (Ctrl+. does the same from the keyboard). */
export function QuickButton({ onClick }: { onClick(): void }) {
  const words = useT().quick;
  return (
    <button type="button" className="button ghost small quick-open" data-action title={words.open} onClick={onClick}>
      ⚡<span className="visually-hidden">{words.title}</span>
    </button>
  );
}
