import { join } from 'node:path';
import { ConfigError, configHelp, resolveConfig, sharedMachine } from './config.js';
import { StartupError } from './startup-error.js';
import { bridgeVersion } from './version.js';

const USAGE = `aiti-bridge — connects AI coding agents (MCP) to the pages they build and to you.

Usage:
  aiti-bridge [options]              run the bridge (headless); prints its URLs on stderr
  aiti-bridge --stdio [--mcp-auth]   MCP stdio server forwarding to the running bridge (for MCP clients)
  aiti-bridge --register-shim [--dry-run] [--unregister]
                                     add (or remove) the "aiti" shim entry in Claude Code, Cursor, VS Code, Codex, Gemini CLI
  aiti-bridge call [<tool> [json]]   run one tool against the running bridge and print its result (no tool: list)
  aiti-bridge agent-token create NAME [--expires 30d] | list | revoke NAME
                                     tokens for agents on other machines (the remote listener, --remote)
  aiti-bridge --help | --version

Clients of the bridge (--stdio, call, agent-token, the Vite plugin) find it by --port, else AITI_BRIDGE_URL, else
the running bridge's record in the data dir (<data-dir>/aiti-bridge/running.json), else http://127.0.0.1:8777.

Options (flag > environment > default):
${configHelp()}
`;

/** What one CLI invocation does; returns the exit code, or never returns while the bridge serves. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (argv.includes('--version')) {
    process.stdout.write(bridgeVersion() + '\n');
    return 0;
  }
  // Each mode loads only its own modules: the shim starts without the server, the server without the shim.
  if (argv.includes('--stdio')) {
    const { runShim } = await import('./shim/stdio.js');
    return runShim(
      argv.filter((a) => a !== '--stdio'),
      env,
    );
  }
  if (argv[0] === 'call') {
    const { runCall } = await import('./shim/call.js');
    return runCall(argv.slice(1), env);
  }
  if (argv[0] === 'agent-token') {
    const { runAgentToken } = await import('./remote/agent-token-command.js');
    return runAgentToken(argv.slice(1), env);
  }
  if (argv.includes('--register-shim')) return registerCommand(argv);
  return serve(argv, env);
}

async function registerCommand(argv: string[]): Promise<number> {
  const unknown = argv.filter((a) => !['--register-shim', '--dry-run', '--unregister'].includes(a));
  if (unknown.length)
    throw new ConfigError(`--register-shim takes --dry-run and --unregister only, got ${unknown.join(' ')}`);
  const { registerShim } = await import('./register/register.js');
  const { formatReport } = await import('./register/report-text.js');
  const report = registerShim({ dryRun: argv.includes('--dry-run'), unregister: argv.includes('--unregister') });
  process.stdout.write(formatReport(report));
  return report.clients.some((c) => c.status === 'error') ? 1 : 0;
}

async function serve(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const config = resolveConfig(argv, env);
  const shared = sharedMachine(env);
  // the data dir and the port first, before the server's modules load and the journal replays: a second bridge on
  // this data dir stops here having touched nothing, and a client coming back to a restart waits instead of being
  // refused
  const { lockDataDir } = await import('./data-dir-lock.js');
  const { holdPort } = await import('./port.js');
  const lock = await lockDataDir(join(config.dataDir, 'aiti-bridge'), {
    pid: process.pid,
    version: bridgeVersion(),
    startedAt: new Date().toISOString(),
  });
  let port;
  try {
    port = await holdPort(config.host, config.port);
  } catch (error) {
    await lock.release();
    throw error;
  }
  const { createBridge } = await import('./bridge.js');
  const bridge = await createBridge(config, { lock, port });
  process.stderr.write(
    `aiti-bridge ${bridge.context.version} listening on ${bridge.url}\n` +
      `  MCP endpoint:  ${bridge.url}/mcp/mcp\n` +
      (config.socket ? `  Unix socket:   AITI_BRIDGE_URL=unix:${config.socket} (for the stdio shim)\n` : '') +
      (bridge.remote
        ? `  remote:        ${bridge.remote.url} (devices pair from the window; agents: aiti-bridge agent-token create NAME)\n`
        : '') +
      `  page agent:    <script src="${bridge.url}/aiti/page.js"></script>\n` +
      `  human window:  ${bridge.uiUrl}\n` +
      `  data dir:      ${bridge.context.appDir}\n` +
      (config.mcpAuth && shared
        ? `  MCP asks for the agent token: ${shared} is set, so other users may share this machine's loopback (--mcp-auth=false turns it off)\n`
        : ''),
  );
  // a newer version on npm, once a day (bridge/update-notice.ts); never holds the bridge up
  void import('./update-notice.js').then(({ updateNotice, updateStampFile }) =>
    updateNotice({
      current: bridge.context.version,
      env,
      stampFile: updateStampFile(env),
      now: Date.now,
      fetch,
      write: (line) => process.stderr.write(`  ${line}\n`),
    }),
  );
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stderr.write(`aiti-bridge: ${signal}, closing\n`);
      void bridge.close().then(resolve);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
    // the terminal it ran in is gone (an `ssh -t` session closed): close as on SIGTERM, the record removed
    process.once('SIGHUP', () => stop('SIGHUP'));
  });
  return 0;
}

/** Runs main and turns known problems into one line on stderr and exit code 2. */
export function run(argv = process.argv.slice(2)): void {
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      if (error instanceof ConfigError || error instanceof StartupError) {
        process.stderr.write(`aiti-bridge: ${error.message}\n`);
        process.exitCode = 2;
      } else {
        process.stderr.write(`aiti-bridge: ${(error as Error).stack ?? String(error)}\n`);
        process.exitCode = 1;
      }
    },
  );
}
