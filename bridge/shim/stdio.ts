import { createLogger } from '../log.js';
import { bridgeTarget } from './connection.js';
import { ShimForwarder } from './forwarder.js';
import { loadSnapshot } from './tools-json.js';
import { StdioChannel } from './stdio-channel.js';

/** How often the shim checks that the process that launched it still runs. */
const PARENT_CHECK_MS = 1000;
/** After closing, the shim leaves even if a socket or timer of Node's would keep it. */
const EXIT_GRACE_MS = 1000;

/**
 * `aiti-bridge --stdio`: an MCP stdio server for clients that only launch commands (Claude Code, Cursor, Codex …),
 * forwarding everything to the running bridge. It loads neither the server nor the MCP SDK, so it answers as soon
 * as Node runs. stdout carries the protocol and nothing else; notes go to stderr.
 *
 * A good child: it ends when the client closes stdin, on SIGTERM and SIGINT, when nobody reads its stdout any
 * more (EPIPE), and when the process that launched it is gone (an orphaned shim would hold its agent id forever).
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
    // the client's config is read only when it names itself, after the shim answered initialize
    clientTimeoutMs: async (name) => (await import('../register/client-limits.js')).configuredToolTimeoutMs(name, env),
    ...(target.token ? { token: target.token } : {}),
  });
  stdio.onmessage = (message) => forwarder.receive(message);
  stdio.onbadline = (line) => log.warn(`skipped a line that is not a JSON-RPC message: ${line.slice(0, 200)}`);
  stdio.start();
  log.debug(`forwarding stdio to ${target.where}`);
  const why = await new Promise<string>((resolve) => {
    process.stdin.once('end', () => resolve('stdin ended'));
    process.stdin.once('close', () => resolve('stdin closed'));
    process.stdout.once('error', (error: NodeJS.ErrnoException) =>
      resolve(`stdout failed (${error.code ?? error.message})`),
    );
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
    const parent = process.ppid;
    // an orphan is handed to another parent (init or a subreaper): its ppid changes
    const watch = setInterval(() => process.ppid !== parent && resolve('its parent process exited'), PARENT_CHECK_MS);
    watch.unref();
  });
  log.debug(`closing: ${why}`);
  await forwarder.close();
  process.stdin.destroy();
  setTimeout(() => process.exit(0), EXIT_GRACE_MS).unref();
  return 0;
}
