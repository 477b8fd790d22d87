import { sayFailure } from '../refusal.js';
import { useState } from 'react';
import type { DeskApi } from './desk-api.js';
import { useDevicesFeed } from './desk-feed.js';
import { useT } from '../i18n/index.js';

/**
 * The desk's approval card for each device that sent a pairing code: its name and the check phrase it shows. The
 * human approves only when the phrase on the device in their hand is the same: someone who raced them to the code
 * (it was on screen) shows another one.
 */
export function PairingCards({ desk }: { desk: DeskApi | undefined }) {
  const feed = useDevicesFeed();
  const words = useT().devices;
  const [problem, setProblem] = useState<string>();
  if (!desk || !feed?.pairings.length) return null;
  const act = (what: Promise<void>) =>
    what.then(
      () => setProblem(undefined),
      (error: unknown) => setProblem(sayFailure(error)),
    );
  return (
    <section className="cards pairing-cards" aria-label={words.waitingLabel}>
      {feed.pairings.map((p) => (
        <article key={p.requestId} className="card pairing-card" aria-label={words.cardLabel(p.name)}>
          <div className="card-head">
            <span className="kind-badge">{words.cardBadge}</span>
            <strong>{p.name}</strong>
          </div>
          <p className="prompt">
            {words.cardPrompt.before}
            <strong>{p.name}</strong>
            {words.cardPrompt.after}
          </p>
          <p className="check-phrase" aria-label={words.phrase}>
            {p.phrase}
          </p>
          <div className="card-actions">
            <button type="button" className="button" onClick={() => void act(desk.refuse(p.requestId))}>
              {words.refuse}
            </button>
            <button type="button" className="button primary" onClick={() => void act(desk.approve(p.requestId))}>
              {words.approve}
            </button>
          </div>
        </article>
      ))}
      {problem && <p className="card-error">{problem}</p>}
    </section>
  );
}
