import { useT } from '../i18n/index.js';
import type { Connection } from '../store.js';

/**
 * Says, while the window has no bridge, that cards cannot be answered and that what the human types is kept: a
 * card must never look live when an answer cannot reach anyone.
 */
export function ConnectionBanner({ connection, cards }: { connection: Connection; cards: number }) {
  const words = useT().banner;
  // the first connection has its pill in the top bar; a banner would only flash at every start
  if (connection === 'live' || connection === 'connecting') return null;
  return (
    <div className={`connection-banner conn-${connection}`} role="alert">
      <strong>{words.why[connection]}</strong> {cards > 0 ? words.cards : words.none}
    </div>
  );
}
