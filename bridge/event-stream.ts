/**
 * One party's open event stream, as the page registry and the window hub use it. The HTTP edge implements it with
 * server-sent events (http/sse.ts); the domain keeps streams without knowing how they are carried.
 */
export interface EventStream {
  readonly isOpen: boolean;
  /** sends one named event; false when the stream is closed */
  send(event: string, data: unknown): boolean;
  onClose(handler: () => void): void;
  close(): void;
}
