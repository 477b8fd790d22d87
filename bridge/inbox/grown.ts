/** The typed-array columns the inbox keeps rows in (not Buffer: its constructor is not for making one). */
type Column = Float64Array | Uint8Array | Uint32Array | Int32Array;

/** A copy of `old`, of the same type, with room for `size` items (the new ones zero). */
export function grown<T extends Column>(old: T, size: number): T {
  const next = new (old.constructor as new (length: number) => T)(size);
  next.set(old);
  return next;
}
