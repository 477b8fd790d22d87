import type { Readable, Writable } from 'node:stream';
import { parseMessage, type JsonRpcMessage } from './jsonrpc.js';

/**
 * The MCP stdio transport, server side: one JSON-RPC message per line on stdin and stdout. stdout carries the
 * protocol and nothing else.
 */
export class StdioChannel {
  onmessage?: (message: JsonRpcMessage) => void;
  /** a line that is not a JSON-RPC message (reported, then skipped) */
  onbadline?: (line: string) => void;
  private buffer = '';

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}

  start(): void {
    this.input.setEncoding('utf8');
    this.input.on('data', (chunk: string) => {
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) !== -1) {
        const line = this.buffer.slice(0, newline).replace(/\r$/, '');
        this.buffer = this.buffer.slice(newline + 1);
        if (!line.trim()) continue;
        const message = parseMessage(line);
        if (message) this.onmessage?.(message);
        else this.onbadline?.(line);
      }
    });
  }

  /** Writes one message; resolves once the pipe took it (waits for drain under back-pressure). */
  send(message: JsonRpcMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(JSON.stringify(message) + '\n')) resolve();
      else this.output.once('drain', resolve);
    });
  }
}
