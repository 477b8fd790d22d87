// The drivers of the real-client suite (docs/TESTING.md, "The real clients"): runClient() runs one pinned CLI once
// against the bridge and a stand-in model that plays a script; the ClientRun it returns holds every model request
// (model/server.ts), what the model read of each tool result (model/<api>.ts) and what the bridge sent (tap.ts).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { cli } from '../helpers/cli.js';
import { installedClient, type ClientName } from './install.js';
import { anthropicApi } from './model/anthropic.js';
import { geminiApi } from './model/gemini.js';
import { openaiApi } from './model/openai.js';
import { SERVER, startModelServer, type ApiServer, type ModelServer } from './model/server.js';
import type { Script } from './model/types.js';
import { startTap, type McpTap, type TapOptions } from './tap.js';

export type { ClientName };
export type Transport = 'stdio' | 'http';

export interface RunOptions {
  client: ClientName;
  /** stdio: the shim registered with `aiti-bridge --register-shim`; http: the client's own Streamable HTTP */
  transport: Transport;
  /** the bridge the client reaches (through a tap that records each tools/call) */
  bridgeUrl: string;
  script: Script;
  /** the client's own tool-call limit, set the way its users set it (unset: the client's default) */
  toolTimeoutMs?: number;
  /** the whole run is killed after this long (default 180 s): a hung client fails its test, it does not hang CI */
  limitMs?: number;
  prompt?: string;
  /** try another result shape through this client without changing the bridge (see TapOptions); never in the suite */
  rewriteResult?: TapOptions['rewrite'];
}

export interface ClientRun {
  client: ClientName;
  transport: Transport;
  /** the stand-in model: every request the client sent it, and the conversation as the model read it */
  model: ModelServer;
  /** the MCP traffic: each tools/call and what the bridge answered */
  tap: McpTap;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** spawn to exit */
  ms: number;
  startedAt: number;
  /** why the harness stopped the client, when it did */
  stopped?: string;
  /** the config files as they were when the client started, for a failing test to print */
  config: Record<string, string>;
}

const API: Record<ClientName, ApiServer> = { 'claude-code': anthropicApi, codex: openaiApi, 'gemini-cli': geminiApi };

/** What each client needs in its home, environment and argv to use the stand-in and the bridge, and nothing else. */
interface ClientSetup {
  /** the client's own folder: --register-shim registers only clients whose folder is there */
  prepare(home: string, modelUrl: string): void;
  /** the `aiti` entry: `url` for http, or the entry --register-shim wrote, with our env and the time-out */
  entry(home: string, mcp: { url?: string; env?: Record<string, string> }, toolTimeoutMs: number | undefined): void;
  env(modelUrl: string, toolTimeoutMs: number | undefined): Record<string, string>;
  argv(prompt: string): string[];
  /** the files that hold its configuration, for the record */
  files(home: string): string[];
}

const readJson = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const writeJson = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value, null, 2));

/** Sets the `aiti` entry of a JSON config's server map, keeping what --register-shim wrote in it. */
function jsonEntry(file: string, container: string, set: (entry: Record<string, unknown>) => Record<string, unknown>) {
  const config = readJson(file);
  const servers = (config[container] ?? {}) as Record<string, Record<string, unknown>>;
  servers[SERVER] = set(servers[SERVER] ?? {});
  config[container] = servers;
  writeJson(file, config);
}

const CLAUDE: ClientSetup = {
  prepare(home) {
    mkdirSync(join(home, '.claude'));
    writeJson(join(home, '.claude.json'), { hasCompletedOnboarding: true });
  },
  entry(home, mcp) {
    jsonEntry(join(home, '.claude.json'), 'mcpServers', (entry) =>
      mcp.url ? { type: 'http', url: mcp.url } : { ...entry, env: mcp.env },
    );
  },
  env(modelUrl, toolTimeoutMs) {
    return {
      ANTHROPIC_BASE_URL: modelUrl,
      ANTHROPIC_API_KEY: 'sk-ant-standin',
      ANTHROPIC_MODEL: 'claude-sonnet-4-5',
      ANTHROPIC_SMALL_FAST_MODEL: 'claude-haiku-4-5',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
      // every tool definition in every request, as a model with tool search off reads them
      ENABLE_TOOL_SEARCH: 'false',
      MCP_CONNECTION_NONBLOCKING: 'false',
      ...(toolTimeoutMs ? { MCP_TOOL_TIMEOUT: String(toolTimeoutMs) } : {}),
    };
  },
  argv: (prompt) => ['-p', prompt, '--allowedTools', `mcp__${SERVER}`, '--output-format', 'stream-json', '--verbose'],
  files: (home) => [join(home, '.claude.json')],
};

const CODEX: ClientSetup = {
  prepare(home, modelUrl) {
    mkdirSync(join(home, '.codex'));
    writeFileSync(
      join(home, '.codex', 'config.toml'),
      stringifyToml({
        model: 'gpt-5-codex',
        model_provider: 'standin',
        check_for_update_on_startup: false,
        model_providers: {
          standin: {
            name: 'standin',
            base_url: `${modelUrl}/v1`,
            env_key: 'STANDIN_API_KEY',
            wire_api: 'responses',
            request_max_retries: 0,
            stream_max_retries: 0,
          },
        },
        analytics: { enabled: false },
        feedback: { enabled: false },
        otel: { exporter: 'none', trace_exporter: 'none' },
      }),
    );
  },
  entry(home, mcp, toolTimeoutMs) {
    const file = join(home, '.codex', 'config.toml');
    const config = parseToml(readFileSync(file, 'utf8')) as Record<string, Record<string, Record<string, unknown>>>;
    const servers = config.mcp_servers ?? {};
    servers[SERVER] = {
      ...(mcp.url ? { url: mcp.url } : { ...servers[SERVER], env: mcp.env }),
      // Codex starts its first turn after ~1 s of grace for MCP servers that are not required; a required one is
      // waited for (startup_timeout_sec), so the tools are in the first request however slow the machine is
      required: true,
      startup_timeout_sec: 60,
      ...(toolTimeoutMs ? { tool_timeout_sec: toolTimeoutMs / 1000 } : {}),
    };
    config.mcp_servers = servers;
    writeFileSync(file, stringifyToml(config));
  },
  env: () => ({ STANDIN_API_KEY: 'sk-standin' }),
  argv: (prompt) => ['exec', '--skip-git-repo-check', '--json', '--dangerously-bypass-approvals-and-sandbox', prompt],
  files: (home) => [join(home, '.codex', 'config.toml')],
};

const GEMINI: ClientSetup = {
  prepare(home) {
    mkdirSync(join(home, '.gemini'));
    writeJson(join(home, '.gemini', 'settings.json'), {
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    });
  },
  entry(home, mcp, toolTimeoutMs) {
    jsonEntry(join(home, '.gemini', 'settings.json'), 'mcpServers', (entry) => ({
      ...(mcp.url ? { httpUrl: mcp.url } : { ...entry, env: mcp.env }),
      trust: true,
      ...(toolTimeoutMs ? { timeout: toolTimeoutMs } : {}),
    }));
  },
  env: (modelUrl) => ({
    GEMINI_API_KEY: 'standin',
    GOOGLE_GEMINI_BASE_URL: modelUrl,
    // -p in a folder it has not been told to trust runs nothing (the run's own temp folder)
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    // it would start itself again with a larger heap: one Node process less per run
    GEMINI_CLI_NO_RELAUNCH: 'true',
  }),
  argv: (prompt) => [
    '-p',
    prompt,
    '--approval-mode',
    'yolo',
    '--output-format',
    'stream-json',
    '--model',
    'gemini-2.5-flash',
  ],
  files: (home) => [join(home, '.gemini', 'settings.json')],
};

const SETUP: Record<ClientName, ClientSetup> = { 'claude-code': CLAUDE, codex: CODEX, 'gemini-cli': GEMINI };

/**
 * Runs one real client once, non-interactively, from a fresh temporary HOME: its model is a stand-in on 127.0.0.1
 * that answers with `script`, and its MCP server is the bridge (through a recording tap) — registered the
 * README's way for stdio (`aiti-bridge --register-shim`, then AITI_BRIDGE_URL in the entry's env), or as a
 * Streamable HTTP URL. Resolves when the client exits (or is stopped: limitMs, or a script step that failed).
 * The caller closes `model` and `tap` (closeRun).
 */
export async function runClient(options: RunOptions): Promise<ClientRun> {
  const installed = installedClient(options.client);
  if ('missing' in installed) throw new Error(installed.missing);
  const setup = SETUP[options.client];
  const home = mkdtempSync(join(tmpdir(), `aiti-${options.client}-`));
  const work = join(home, 'project');
  mkdirSync(work);
  let stop: (why: string) => void = () => undefined;
  const model = await startModelServer(API[options.client], options.script, {
    onError: (error) => stop(`a script step failed: ${error.message}`),
  });
  const tap = await startTap(options.bridgeUrl, options.rewriteResult ? { rewrite: options.rewriteResult } : {});
  try {
    setup.prepare(home, model.url);
    if (options.transport === 'stdio') {
      const registered = await cli(['--register-shim'], { HOME: home });
      if (registered.code !== 0) throw new Error(`--register-shim failed: ${registered.stderr}${registered.stdout}`);
      setup.entry(home, { env: { AITI_BRIDGE_URL: tap.url } }, options.toolTimeoutMs);
    } else {
      setup.entry(home, { url: `${tap.url}/mcp/mcp` }, options.toolTimeoutMs);
    }
    const config = Object.fromEntries(setup.files(home).map((f) => [f, readFileSync(f, 'utf8')]));
    const startedAt = Date.now();
    // its own process group, so the launcher (Codex's and Gemini's are Node scripts), the native client and the
    // shim it started all stop together
    const child = spawn(installed.command, [...installed.args, ...setup.argv(options.prompt ?? 'Work on the page.')], {
      cwd: work,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        TERM: 'dumb',
        NO_COLOR: '1',
        ...setup.env(model.url, options.toolTimeoutMs),
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let stopped: string | undefined;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    stop = (why) => {
      stopped ??= why;
      killGroup();
    };
    const limit = setTimeout(
      () => stop(`still running after ${options.limitMs ?? 180_000} ms`),
      options.limitMs ?? 180_000,
    );
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('exit', (c, s) => resolve([c, s])),
    );
    clearTimeout(limit);
    // the shim and anything else it left behind
    killGroup();
    return {
      client: options.client,
      transport: options.transport,
      model,
      tap,
      code,
      signal,
      stdout,
      stderr,
      ms: Date.now() - startedAt,
      startedAt,
      ...(stopped ? { stopped } : {}),
      config,
    };
  } catch (error) {
    await closeRun({ model, tap });
    throw error;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

export async function closeRun(run: { model: ModelServer; tap: McpTap }): Promise<void> {
  await run.model.close();
  await run.tap.close();
}
