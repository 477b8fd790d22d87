/**
 * `@aiti-ai/aiti-bridge`: run a bridge inside your own process (`createBridge`, the same bridge the CLI runs),
 * and the wire contract (zod schemas and their types) for code that talks to one.
 */
import { createBridge as startBridge } from './bridge.js';
import type { BridgeConfig } from './config.js';

/**
 * A running bridge. Declared here rather than re-exported from bridge.ts so the published types never reach the
 * server's internals (whose declarations need Koa's types, a dev dependency).
 */
export interface Bridge {
  /** e.g. http://127.0.0.1:8777 */
  url: string;
  /** the human window, with its token in the fragment */
  uiUrl: string;
  port: number;
  /** the human's token */
  token: string;
  /** stops listening and closes every stream */
  close(): Promise<void>;
}

/** Starts a bridge (port 0 picks a free one). Many can run in one process, each with its own data dir. */
export function createBridge(config: Partial<BridgeConfig> = {}): Promise<Bridge> {
  return startBridge(config);
}

export { StartupError } from './startup-error.js';
export { ConfigError, defaultConfig, resolveConfig, type BridgeConfig } from './config.js';
export * from './protocol/index.js';
