import { existsSync, readdirSync } from 'node:fs';
import { findNode, nodeProblem, type NodeSearch } from './node-finder.js';
import type { RunCommand } from './run-command.js';
import { loginShellEnv } from './shell-env.js';

export interface NodeCheckDeps {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
  run: RunCommand;
  mcpUrl: string;
  /** a search finished: the tray shows its problem, or no longer */
  onChange(): void;
}

export interface NodeCheck {
  /** the latest search (the first one starts with the app) */
  latest(): Promise<NodeSearch>;
  /** searches again: the human may have installed Node since */
  again(): Promise<NodeSearch>;
  /** the problem of the latest finished search, for the tray; undefined while none is known */
  problem(): string | undefined;
  /** the app's environment with the login shell's variables, which the clients' folders are found with */
  env(): Promise<NodeJS.ProcessEnv>;
}

const list = (folder: string) => {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
};

/** Looks for the Node the registered shim will run with, once at start and again on each registration. */
export function startNodeCheck(deps: NodeCheckDeps): NodeCheck {
  const env = loginShellEnv(deps).then((shell) => ({ ...deps.env, ...shell }));
  let problem: string | undefined;
  const search = () =>
    env
      .then((merged) => findNode({ ...deps, env: merged, exists: existsSync, list }))
      .then((found) => {
        problem = nodeProblem(found, deps.platform, deps.mcpUrl);
        deps.onChange();
        return found;
      });
  let latest = search();
  return {
    latest: () => latest,
    again: () => (latest = search()),
    problem: () => problem,
    env: () => env,
  };
}
