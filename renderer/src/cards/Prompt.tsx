import { useState } from 'react';
import { Markdown } from '../markdown/Markdown.js';

/** Past this many characters or lines a prompt is shown folded, with "Show all". */
const FOLD_CHARS = 600;
const FOLD_LINES = 10;

/** What an agent asks, read as markdown; a long one folded so a card stays one screen tall. */
export function Prompt({ text }: { text: string }) {
  const long = text.length > FOLD_CHARS || text.split('\n').length > FOLD_LINES;
  const [open, setOpen] = useState(false);
  const folded = long && !open;
  return (
    <div className={`prompt${folded ? ' folded' : ''}`}>
      <Markdown text={text} />
      {long && (
        <button type="button" className="button link small" data-action onClick={() => setOpen(!open)}>
          {open ? 'Show less' : `Show all (${text.length.toLocaleString()} characters)`}
        </button>
      )}
    </div>
  );
}
