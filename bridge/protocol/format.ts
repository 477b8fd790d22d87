import type { z } from 'zod';

/** Turns a zod failure into one line a person can act on: `field "to": expected string, got number`. */
export function describeZodError(error: z.ZodError): { message: string; field?: string } {
  const issue = error.issues[0];
  if (!issue) return { message: 'invalid input' };
  const field = issue.path.map(String).join('.');
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return {
    message: field ? `field "${field}": ${issue.message}${more}` : `${issue.message}${more}`,
    field: field || undefined,
  };
}
