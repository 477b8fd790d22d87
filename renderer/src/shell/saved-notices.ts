import type { Notice, WindowState } from '../store.js';

const KEY = 'aiti.notices';

/** The notices not yet dismissed, as this tab last had them: a reload keeps what the human has not read. */
export function withSavedNotices(state: WindowState): WindowState {
  try {
    const raw = sessionStorage.getItem(KEY);
    const saved = raw ? (JSON.parse(raw) as unknown) : [];
    if (!Array.isArray(saved)) return state;
    const notices = saved.filter(
      (n): n is Notice =>
        typeof n === 'object' &&
        n !== null &&
        typeof (n as Notice).id === 'number' &&
        typeof (n as Notice).agentId === 'string' &&
        typeof (n as Notice).body === 'string',
    );
    return { ...state, notices };
  } catch {
    return state;
  }
}

export function saveNotices(notices: readonly Notice[]): void {
  try {
    if (notices.length) sessionStorage.setItem(KEY, JSON.stringify(notices));
    else sessionStorage.removeItem(KEY);
  } catch {
    // storage full or disabled: the notices live on in memory only
  }
}
