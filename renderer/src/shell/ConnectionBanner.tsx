import type { Connection } from '../store.js';

/** Why the window cannot answer now, for every state but a live connection. */
const WHY: Record<Exclude<Connection, 'live' | 'connecting'>, string> = {
  reconnecting: 'The bridge is not answering; the window keeps trying.',
  impostor: 'What answers on the port could not prove it is the bridge.',
  no_token: 'This window has no token for the bridge.',
};

/**
 * Says, while the window has no bridge, that cards cannot be answered and that what the human types is kept: a
 * card must never look live when an answer cannot reach anyone.
 */
export function ConnectionBanner({ connection, cards }: { connection: Connection; cards: number }) {
  // the first connection has its pill in the top bar; a banner would only flash at every start
  if (connection === 'live' || connection === 'connecting') return null;
  return (
    <div className={`connection-banner conn-${connection}`} role="alert">
      <strong>{WHY[connection]}</strong>{' '}
      {cards > 0
        ? 'Until it is back, cards cannot be answered; what you type on them is kept, and you can send it then.'
        : 'Nothing can be sent until it is back; what you type is kept.'}
    </div>
  );
}
