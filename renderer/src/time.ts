import { locale, t } from './i18n/index.js';

/** `14:03:07` today, `Nov 29 14:03` before, in the window's language. */
export function clockTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay
    ? date.toLocaleTimeString(locale(), { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })
    : date.toLocaleString(locale(), {
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hour12: false,
      });
}

/** `just now`, `42 s ago`, `5 min ago`, `3 h ago`, `2 d ago`. */
export function ago(iso: string, now = Date.now()): string {
  const ms = now - Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  const s = Math.round(ms / 1000);
  const words = t().time;
  if (s < 5) return words.justNow;
  if (s < 60) return words.seconds(s);
  if (s < 3600) return words.minutes(Math.round(s / 60));
  if (s < 86400) return words.hours(Math.round(s / 3600));
  return words.days(Math.round(s / 86400));
}

/** `localhost:5173/settings` from a full URL: what a person reads first. */
export function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname === '/' ? '' : u.pathname;
    return `${u.host}${path}${u.search}`;
  } catch {
    return url;
  }
}
