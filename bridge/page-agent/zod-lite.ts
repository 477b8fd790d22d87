/**
 * The page bundle maps `zod` to this module (scripts/page-bundle.js). Zod's full namespace reaches every locale and
 * the JSON-schema tools (~450 KiB); the protocol schemas use only the builders zod-names.ts picks. Same zod, same
 * schemas — one source of truth — only the namespace is narrower. Page-side files import zod as a namespace
 * (`import * as z from 'zod'`, enforced by lint), so esbuild sees every builder they use, and the build fails
 * naming any that zod-names.ts does not export: add the name there.
 */
export * from './zod-names.js';
