import { useT } from '../i18n/index.js';
import { remainingNow, type OpenAsk } from '../store.js';
import { useNow } from '../useNow.js';

export function formatRemaining(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** The time left on an ask: the server's remainingMs at receipt, run down on the monotonic clock. */
export function Countdown({ ask, offline = false }: { ask: OpenAsk; offline?: boolean }) {
  const words = useT().cards;
  const now = useNow(250, !ask.paused && !offline);
  const remaining = remainingNow(ask, now);
  const fraction = Math.min(1, remaining / ask.totalMs);
  const urgency = remaining <= 10_000 ? 'urgent' : remaining <= 30_000 ? 'soon' : 'calm';
  return (
    <div className={`countdown ${urgency}${ask.paused ? ' paused' : ''}${offline ? ' offline' : ''}`}>
      <div
        className="countdown-bar"
        role="progressbar"
        aria-label={words.timeLeft}
        aria-valuemin={0}
        aria-valuemax={Math.round(ask.totalMs / 1000)}
        aria-valuenow={Math.ceil(remaining / 1000)}
        aria-valuetext={
          offline
            ? words.offlineTime
            : ask.paused
              ? words.paused(formatRemaining(remaining))
              : words.timeLeftText(formatRemaining(remaining))
        }
      >
        <div className="countdown-fill" style={{ width: `${(fraction * 100).toFixed(2)}%` }} />
      </div>
      <span className="countdown-time" data-testid="countdown" aria-hidden>
        {offline
          ? words.offlineTime
          : ask.paused
            ? words.paused(formatRemaining(remaining))
            : formatRemaining(remaining)}
      </span>
    </div>
  );
}
