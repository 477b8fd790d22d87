import type { ReactNode } from 'react';
import { parseMarkdown, type Block, type Inline } from './parse.js';

function inline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.type) {
      case 'text':
        return node.text;
      case 'code':
        return <code key={i}>{node.text}</code>;
      case 'break':
        return <br key={i} />;
      case 'plain':
        return <span key={i}>{inline(node.children)}</span>;
      case 'strong':
        return <strong key={i}>{inline(node.children)}</strong>;
      case 'em':
        return <em key={i}>{inline(node.children)}</em>;
      case 'link':
        return (
          <a key={i} href={node.href} target="_blank" rel="noopener noreferrer">
            {inline(node.children)}
          </a>
        );
    }
  });
}

function block(node: Block, i: number): ReactNode {
  switch (node.type) {
    case 'paragraph':
      return <p key={i}>{inline(node.children)}</p>;
    case 'heading':
      return (
        <p key={i} className={`md-heading md-h${Math.min(node.level, 3)}`}>
          {inline(node.children)}
        </p>
      );
    case 'code':
      return (
        <pre key={i} className="md-code" data-lang={node.lang}>
          <code>{node.text}</code>
        </pre>
      );
    case 'list': {
      // a list item of one paragraph reads as its words, as prompts write them
      const items = node.items.map((item, j) => (
        <li key={j}>
          {item.length === 1 && item[0]?.type === 'paragraph' ? inline(item[0].children) : item.map(block)}
        </li>
      ));
      return node.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
    }
    case 'quote':
      return <blockquote key={i}>{node.children.map(block)}</blockquote>;
  }
}

/** Markdown as React elements (never as HTML): raw HTML in the source shows as text. */
export function Markdown({ text, className }: { text: string; className?: string }) {
  return <div className={`markdown${className ? ` ${className}` : ''}`}>{parseMarkdown(text).map(block)}</div>;
}
