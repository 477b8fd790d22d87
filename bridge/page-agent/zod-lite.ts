/**
 * The page bundle maps `import { z } from 'zod'` to this module. Zod's `z` namespace reaches every locale and the
 * JSON-schema tools (~450 KiB); the protocol schemas only use these builders. Same zod, same schemas — one source
 * of truth — only the namespace is narrower. Add a name here when a protocol file starts using a new builder.
 */
import * as z from './zod-names.js';

export { z };
