/**
 * A small markdown reader for what agents write in asks: paragraphs, headings, lists, quotes, fenced code and
 * inline code, bold, italics and links. It builds a tree of plain data that React renders as elements — no
 * HTML string is ever made, so raw HTML in a prompt shows as the text it is.
 */
export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] };

export type Block =
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'heading'; level: number; children: Inline[] }
  | { type: 'code'; lang?: string; text: string }
  | { type: 'list'; ordered: boolean; items: Inline[][] }
  | { type: 'quote'; children: Inline[] };

const FENCE = /^\s*(```|~~~)\s*([\w+-]*)\s*$/;
const HEADING = /^(#{1,6})\s+(.*)$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ type: 'paragraph', children: parseInline(paragraph.join('\n')) });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      let j = i + 1;
      while (j < lines.length && !(lines[j] ?? '').trim().startsWith(fence[1] ?? '```')) code.push(lines[j++] ?? '');
      blocks.push({ type: 'code', ...(fence[2] ? { lang: fence[2] } : {}), text: code.join('\n') });
      i = j;
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ type: 'heading', level: heading[1]?.length ?? 1, children: parseInline(heading[2] ?? '') });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (bullet || numbered) {
      flush();
      const ordered = !bullet;
      const pattern = ordered ? NUMBERED : BULLET;
      const items: Inline[][] = [];
      let j = i;
      for (let m = pattern.exec(lines[j] ?? ''); m && j < lines.length; m = pattern.exec(lines[++j] ?? ''))
        items.push(parseInline(m[1] ?? ''));
      blocks.push({ type: 'list', ordered, items });
      i = j - 1;
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      flush();
      const quoted: string[] = [];
      let j = i;
      for (let m = QUOTE.exec(lines[j] ?? ''); m && j < lines.length; m = QUOTE.exec(lines[++j] ?? ''))
        quoted.push(m[1] ?? '');
      blocks.push({ type: 'quote', children: parseInline(quoted.join('\n')) });
      i = j - 1;
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return blocks;
}

/** Only web and mail links become links; anything else (javascript:, data:, file:) stays text. */
export function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const INLINE =
  /(`+)([\s\S]*?[^`])\1(?!`)|\*\*([\s\S]+?)\*\*|__([\s\S]+?)__|\*([^*\s][^*]*?)\*|_([^_\s][^_]*?)_(?!\w)|\[([^\]]+)\]\(([^)\s]+)\)/;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let rest = text;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) {
      out.push({ type: 'text', text: rest });
      break;
    }
    if (m.index > 0) out.push({ type: 'text', text: rest.slice(0, m.index) });
    if (m[2] !== undefined) out.push({ type: 'code', text: m[2].trim() ? m[2].replace(/^ | $/g, '') : m[2] });
    else if (m[3] !== undefined || m[4] !== undefined)
      out.push({ type: 'strong', children: parseInline(m[3] ?? m[4] ?? '') });
    else if (m[5] !== undefined || m[6] !== undefined)
      out.push({ type: 'em', children: parseInline(m[5] ?? m[6] ?? '') });
    else if (m[7] !== undefined && m[8] !== undefined) {
      const href = safeHref(m[8]);
      out.push(href ? { type: 'link', href, children: parseInline(m[7]) } : { type: 'text', text: m[0] });
    }
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}
