import { useState } from 'react';
import { locale, useT } from '../i18n/index.js';
import { Markdown } from '../markdown/Markdown.js';

/** Past this many characters or lines a prompt is shown folded, with "Show all". */
const FOLD_CHARS = 600;
const FOLD_LINES = 10;
/** A last paragraph longer than this is not "the question": only its last line is kept in view. */
const QUESTION_CHARS = 400;

/**
 * A long prompt split for folding: what leads up to it, and the question, which agents put last. The question
 * is the last paragraph (its last line when the paragraph is long); a prompt that ends inside code keeps none.
 */
export function splitQuestion(text: string): { head: string; question: string } {
  const trimmed = text.trimEnd();
  const cut = trimmed.lastIndexOf('\n\n');
  let question = cut < 0 ? '' : trimmed.slice(cut + 2);
  if (question.length > QUESTION_CHARS || question.split('\n').some((line) => /^\s*(```|~~~)/.test(line))) {
    const line = trimmed.lastIndexOf('\n');
    question = line < 0 || /^\s*(```|~~~)/.test(trimmed.slice(line + 1)) ? '' : trimmed.slice(line + 1);
  }
  if (!question.trim()) return { head: trimmed, question: '' };
  return { head: trimmed.slice(0, trimmed.length - question.length), question };
}

/**
 * What an agent asks, read as markdown; a long one folded so a card stays one screen tall, with its question
 * (the last paragraph) always in view below the fold.
 */
export function Prompt({ text }: { text: string }) {
  const words = useT().cards;
  const long = text.length > FOLD_CHARS || text.split('\n').length > FOLD_LINES;
  const [open, setOpen] = useState(false);
  const folded = long && !open;
  const { head, question } = folded ? splitQuestion(text) : { head: text, question: '' };
  return (
    <div className={`prompt${folded ? ' folded' : ''}`}>
      <Markdown text={head} className={folded ? 'prompt-head' : undefined} />
      {question && <Markdown text={question} className="prompt-question" />}
      {long && (
        <button type="button" className="button link small" data-action onClick={() => setOpen(!open)}>
          {open ? words.showLess : words.showAll(text.length.toLocaleString(locale()))}
        </button>
      )}
    </div>
  );
}
