/**
 * One party's open event stream, as the page registry and the window hub use it. The HTTP edge implements it with
 * server-sent events (http/sse.ts); the domain keeps streams without knowing how they are carried.
 */
export interface EventStream {
  readonly isOpen: boolean;
  /**
   * sends one named event; false when the stream is closed. `first`: the event a stream starts with (the window's
   * `state`), whose size is the bridge's own doing: it is not judged against the reader's unread budget
   */
  send(event: string, data: unknown, options?: { first?: boolean }): boolean;
  onClose(handler: () => void): void;
  close(): void;
}
