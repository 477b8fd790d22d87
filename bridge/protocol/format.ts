import type * as z from 'zod';

type Issue = z.ZodError['issues'][number];

/** One issue as a person reads it, and the field it is about. */
function describeIssue(issue: Issue): { message: string; field?: string } {
  if (issue.code === 'unrecognized_keys') {
    // the message names the keys itself; the field is the (first) unknown key, e.g. "args.buton"
    const field = [...issue.path, ...issue.keys.slice(0, 1)].map(String).join('.');
    return { message: issue.message, field: field || undefined };
  }
  // A record's key that its schema refused names the record (the key may be "") and says why: zod's own message
  // is only "Invalid key in record".
  const badKey = issue.code === 'invalid_key';
  const field = (badKey ? issue.path.slice(0, -1) : issue.path).map(String).join('.');
  const message = badKey ? (issue.issues[0]?.message ?? issue.message) : issue.message;
  return { message: field ? `field "${field}": ${message}` : message, field: field || undefined };
}

/**
 * Turns a zod failure into one line a person can act on: `field "to": expected string, got number`. More problems
 * are spelled out as such ("; and 1 more problem: field …"): "(and 1 more)" read as one more argument.
 */
export function describeZodError(error: z.ZodError): { message: string; field?: string } {
  // An unknown key is most often the cause of the rest (a typo leaves a required field missing): say it first.
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0];
  if (!issue) return { message: 'invalid input' };
  const first = describeIssue(issue);
  const rest = error.issues.filter((i) => i !== issue);
  const next = rest[0];
  const more = next
    ? `; and ${rest.length} more problem${rest.length > 1 ? 's' : ''}: ${describeIssue(next).message}${rest.length > 1 ? ' …' : ''}`
    : '';
  return { message: `${first.message}${more}`, ...(first.field ? { field: first.field } : {}) };
}
