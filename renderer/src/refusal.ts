import { ApiError } from './api.js';
import { t } from './i18n/index.js';

/**
 * A failed call in the human's language: what happened to what they sent, first; the bridge's own words (English,
 * written for agents and logs) after it, as data. fetch's TypeError means nothing answered.
 */
export function sayFailure(error: unknown): string {
  const words = t().problems;
  if (nothingAnswered(error)) return words.unreachable;
  if (error instanceof ApiError) {
    if (error.failure === 'impostor') return words.impostor;
    if (error.failure === 'unpaired') return words.unpaired;
    if (error.failure === 'shape') return words.unknownShape;
    if (error.status === 409) return words.alreadyEnded(error.detail);
    if (error.status === 404) return words.notFound(error.detail);
    if (error.status === 503 || error.status === 507) return words.notSaved(error.detail);
    return words.refused(error.status, error.detail);
  }
  return error instanceof Error ? error.message : String(error);
}

/** The call found no bridge: fetch's TypeError (nothing answered), or the proof asked first got no answer. */
export function nothingAnswered(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof ApiError && error.failure === 'unreachable');
}
