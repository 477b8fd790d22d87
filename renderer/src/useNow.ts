import { useEffect, useState } from 'react';

/** The monotonic clock (performance.now), re-read every `everyMs` while `running`. */
export function useNow(everyMs: number, running = true): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    setNow(performance.now());
    if (!running) return;
    const timer = setInterval(() => setNow(performance.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, running]);
  return now;
}
