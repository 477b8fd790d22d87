import { sameSecret } from '../token.js';

/** The bearer token of an Authorization header, if it carries one. */
export function bearerOf(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.toLowerCase().startsWith('bearer ') ? value.slice(7).trim() : undefined;
}

/** Whether an Authorization header carries this bearer token. */
export function carriesToken(header: string | string[] | undefined, token: string): boolean {
  return presents(bearerOf(header), token);
}

/** Whether a presented token (or none) is this one. */
export function presents(presented: string | undefined, token: string): boolean {
  return presented !== undefined && sameSecret(presented, token);
}
