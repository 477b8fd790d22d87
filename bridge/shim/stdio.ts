import { createLogger } from '../log.js';
import { bridgeTarget } from './connection.js';
import { ShimForwarder } from './forwarder.js';
import { loadSnapshot } from './tools-json.js';
import { StdioChannel } from './stdio-channel.js';

/**
 * `aiti-bridge --stdio`: an MCP stdio server for clients that only launch commands (Claude Code, Cursor, Codex …),
 * forwarding everything to the running bridge. It loads neither the server nor the MCP SDK, so it answers as soon
 * as Node runs. stdout carries the protocol and nothing else; notes go to stderr. Resolves when the client closes
 * stdin.
 */
export async function runShim(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const target = bridgeTarget(argv, env);
  const log = createLogger('aiti-shim');
  const stdio = new StdioChannel(process.stdin, process.stdout);
  const forwarder = new ShimForwarder(stdio, {
    endpoint: target.endpoint,
    where: target.where,
    ...(target.socketPath ? { socketPath: target.socketPath } : {}),
    log,
    snapshot: loadSnapshot(),
    ...(target.token ? { token: target.token } : {}),
  });
  stdio.onmessage = (message) => forwarder.receive(message);
  stdio.onbadline = (line) => log.warn(`skipped a line that is not a JSON-RPC message: ${line.slice(0, 200)}`);
  stdio.start();
  log.debug(`forwarding stdio to ${target.where}`);
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    process.stdin.once('end', done);
    process.stdin.once('close', done);
    process.once('SIGTERM', done);
    process.once('SIGINT', done);
  });
  await forwarder.close();
  return 0;
}
