import { createLogger, type Logger } from '../../bridge/log.js';

/** A logger that keeps its warnings, so a test can read what a person would read on stderr. */
export function recordingLog(): { log: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const base = createLogger('test', 'silent');
  const log: Logger = { ...base, warn: (message: string) => warnings.push(message), child: () => log };
  return { log, warnings };
}
