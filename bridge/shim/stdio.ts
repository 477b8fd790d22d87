import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createLogger } from '../log.js';
import { bridgeTarget } from './connection.js';
import { ShimForwarder } from './forwarder.js';

/**
 * `aiti-bridge --stdio`: an MCP stdio server for clients that only launch commands (Claude Code, Cursor, Codex …),
 * forwarding everything to the running bridge. stdout carries the protocol and nothing else; notes go to stderr.
 * Resolves when the client closes stdin.
 */
export async function runShim(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const target = bridgeTarget(argv, env);
  const log = createLogger('aiti-shim');
  const stdio = new StdioServerTransport(process.stdin, process.stdout);
  const forwarder = new ShimForwarder(stdio, {
    endpoint: target.endpoint,
    log,
    ...(target.token ? { token: target.token } : {}),
  });
  await stdio.start();
  log.debug(`forwarding stdio to ${target.endpoint.href}`);
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    process.stdin.once('end', done);
    process.stdin.once('close', done);
    process.once('SIGTERM', done);
    process.once('SIGINT', done);
  });
  await forwarder.close();
  await stdio.close();
  return 0;
}
