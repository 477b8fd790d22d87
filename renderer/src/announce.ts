import { useEffect, useRef, useState } from 'react';
import type { OpenAsk } from './store.js';
import { kindLabel } from './cards/options.js';
import { t } from './i18n/index.js';

/** Characters of the prompt a screen reader hears with a new ask; the card has the rest. */
const SAID = 140;

/**
 * What the polite live region says: each new ask as it arrives ("Confirm from claude: Run the migration?"), so a
 * screen-reader user hears it without the focus ever moving.
 */
export function useAnnouncement(asks: OpenAsk[]): string {
  const seen = useRef<Set<string> | undefined>(undefined);
  const [said, setSaid] = useState('');
  useEffect(() => {
    const open = asks.filter((a) => !a.ended);
    const known = (seen.current ??= new Set());
    const fresh = open.filter((a) => !known.has(a.askId));
    for (const ask of fresh) known.add(ask.askId);
    if (!fresh.length) return;
    setSaid(
      fresh
        .map((a) => {
          const prompt = a.prompt.length > SAID ? `${a.prompt.slice(0, SAID - 1)}…` : a.prompt;
          return t().announce(kindLabel(a.kind), a.agentId, prompt);
        })
        .join(' '),
    );
  }, [asks]);
  return said;
}
