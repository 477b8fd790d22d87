// Plain string code, no zod: the CLI's flag parsing (config.ts) uses it, and the stdio shim loads config.ts.

/** The known name a typo most likely meant: the same name in another case, else one within a few edits. */
export function closest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const sameCase = known.find((k) => k.toLowerCase() === lower);
  if (sameCase) return sameCase;
  const allowed = Math.max(1, Math.floor(name.length / 3));
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const distance = editDistance(lower, key.toLowerCase());
    if (distance <= allowed && (!best || distance < best.distance)) best = { key, distance };
  }
  return best?.key;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
