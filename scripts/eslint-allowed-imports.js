// An ESLint rule: a file may import only what its folder's allow-list names (eslint.config.js builds one per
// folder of bridge/ and per root file). An allow-list, not a deny-list: a new folder, a new package or a new
// dependency between folders is refused until someone writes down that it is meant.
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * What an allow-list entry says:
 * - `bridge/protocol/` (ends with `/`): any file under that folder;
 * - `bridge/errors.ts`: that file (imports name it `../errors.js`);
 * - `zod`: that package exactly; `node:*`: any module under that prefix.
 */
function allows(entry, target) {
  if (entry.endsWith('*')) return target.startsWith(entry.slice(0, -1));
  if (entry.endsWith('/')) return target.startsWith(entry);
  return target === entry;
}

/** The repository path a relative import points at (`../errors.js` → `bridge/errors.ts`), or a bare specifier as is. */
function targetOf(specifier, filename) {
  if (!specifier.startsWith('.')) return specifier;
  const path = relative(root, resolve(dirname(filename), specifier))
    .split(sep)
    .join('/');
  return path.replace(/\.js$/, '.ts');
}

/** @type {import('eslint').Rule.RuleModule} */
export const allowedImports = {
  meta: {
    type: 'problem',
    docs: { description: "refuses any import its folder's allow-list does not name" },
    schema: [
      {
        type: 'object',
        properties: {
          folder: { type: 'string' },
          allow: { type: 'array', items: { type: 'string' } },
          why: { type: 'string' },
        },
        required: ['folder', 'allow', 'why'],
        additionalProperties: false,
      },
    ],
    messages: {
      refused:
        '{{folder}} may not import "{{specifier}}" ({{target}}): {{why}}. It may import: {{allowed}}. If this dependency is meant, add it to the allow-list in eslint.config.js (and docs/ARCHITECTURE.md).',
    },
  },
  create(context) {
    const [{ folder, allow, why }] = context.options;
    const check = (node) => {
      const specifier = node.source?.type === 'Literal' ? node.source.value : undefined;
      if (typeof specifier !== 'string') return;
      const target = targetOf(specifier, context.filename);
      if (allow.some((entry) => allows(entry, target))) return;
      context.report({
        node: node.source,
        messageId: 'refused',
        data: { folder, specifier, target, why, allowed: allow.join(', ') || 'nothing' },
      });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
