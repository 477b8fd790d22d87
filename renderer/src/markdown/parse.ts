import MarkdownIt from 'markdown-it';

/**
 * What agents write in asks, read as markdown by markdown-it (CommonMark, kept by its authors against the
 * pathological inputs of the CommonMark test suite, so the time it takes grows with the length of the text: 3,000
 * backticks no longer block the window for seconds, see test/security/linear-text.test.ts and `npm run bench markdown`).
 * Only what prompts use is switched on: paragraphs, headings, lists, quotes, fenced code, inline code, bold,
 * italics, links and backslash escapes. HTML is off, and no HTML string is ever made: the tokens become a tree of
 * plain data that React renders as elements, so raw HTML in a prompt shows as the text it is.
 */
export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'break' }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  /** the words of a link whose target is not a web or mail address: kept, not linked */
  | { type: 'plain'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] };

export type Block =
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'heading'; level: number; children: Inline[] }
  | { type: 'code'; lang?: string; text: string }
  | { type: 'list'; ordered: boolean; items: Block[][] }
  | { type: 'quote'; children: Block[] };

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

const reader = new MarkdownIt('zero', { html: false, linkify: false, typographer: false })
  .enable(['heading', 'lheading', 'list', 'blockquote', 'fence'])
  .enable(['backticks', 'emphasis', 'link', 'escape', 'newline']);

/** Only web and mail links become links; anything else (javascript:, data:, file:) stays text. */
export function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function parseMarkdown(source: string): Block[] {
  return blocks(reader.parse(source, {}), { at: 0 }, '');
}

/** The blocks from `cursor.at` up to the token that closes `until` (or the end), moving the cursor past them. */
function blocks(tokens: Token[], cursor: { at: number }, until: string): Block[] {
  const out: Block[] = [];
  while (cursor.at < tokens.length) {
    const token = tokens[cursor.at++];
    if (!token || token.type === until) break;
    switch (token.type) {
      case 'paragraph_open':
      case 'heading_open': {
        const children = inline(tokens[cursor.at]?.children ?? []);
        cursor.at += 2; // the inline token and the close
        out.push(
          token.type === 'heading_open'
            ? { type: 'heading', level: Number(token.tag.slice(1)) || 1, children }
            : { type: 'paragraph', children },
        );
        break;
      }
      case 'fence': {
        const lang = token.info.trim().split(/\s/, 1)[0];
        out.push({ type: 'code', ...(lang ? { lang } : {}), text: token.content.replace(/\n$/, '') });
        break;
      }
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const close = token.type.replace('_open', '_close');
        const items: Block[][] = [];
        while (cursor.at < tokens.length && tokens[cursor.at]?.type === 'list_item_open') {
          cursor.at++;
          items.push(blocks(tokens, cursor, 'list_item_close'));
        }
        if (tokens[cursor.at]?.type === close) cursor.at++;
        out.push({ type: 'list', ordered: token.type === 'ordered_list_open', items });
        break;
      }
      case 'blockquote_open':
        out.push({ type: 'quote', children: blocks(tokens, cursor, 'blockquote_close') });
        break;
      default:
        // nothing else is switched on; a token of another kind is skipped, never shown as markup
        break;
    }
  }
  return out;
}

/** The inline tokens of one paragraph or heading as a tree (open/close pairs become nodes with children). */
function inline(tokens: Token[]): Inline[] {
  const root: Inline[] = [];
  const stack: Array<{ close: string; node: Inline & { children: Inline[] } }> = [];
  const here = () => stack[stack.length - 1]?.node.children ?? root;
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
        here().push({ type: 'text', text: token.content });
        break;
      case 'code_inline':
        here().push({ type: 'code', text: token.content });
        break;
      case 'softbreak':
        here().push({ type: 'text', text: '\n' });
        break;
      case 'hardbreak':
        here().push({ type: 'break' });
        break;
      case 'strong_open':
      case 'em_open': {
        const node = { type: token.type === 'strong_open' ? 'strong' : 'em', children: [] } as Inline & {
          children: Inline[];
        };
        here().push(node);
        stack.push({ close: token.type.replace('_open', '_close'), node });
        break;
      }
      case 'link_open': {
        const href = safeHref(String(token.attrGet('href') ?? ''));
        const node: Inline & { children: Inline[] } = href
          ? { type: 'link', href, children: [] }
          : { type: 'plain', children: [] };
        here().push(node);
        stack.push({ close: 'link_close', node });
        break;
      }
      case 'strong_close':
      case 'em_close':
      case 'link_close':
        if (stack[stack.length - 1]?.close === token.type) stack.pop();
        break;
      default:
        if (token.content) here().push({ type: 'text', text: token.content });
    }
  }
  return root;
}
