import { describe, expect, it } from 'vitest';
import { diffOutlines, refOfLine } from '../../bridge/mcp/outline-diff.js';
import { plainLines } from '../../bridge/mcp/text.js';

describe('tool text for models', () => {
  it('writes JSON values as plain indented lines, quoting only strings that need it', () => {
    const lines = plainLines({
      element: 'button "Save" (e9)',
      value: 'two\nlines',
      empty: '',
      count: 3,
      tags: ['a', 'b'],
      matches: [
        { ref: 'e1', visible: true },
        { ref: 'e2', rect: { x: 1 } },
      ],
      nested: { deep: null },
    });
    expect(lines).toEqual([
      'element: button "Save" (e9)',
      'value:',
      '  two',
      '  lines',
      'empty: ""',
      'count: 3',
      'tags: a, b',
      'matches:',
      '  - ref: e1, visible: true',
      '  - ref: e2',
      '    rect:',
      '      x: 1',
      'nested:',
      '  deep: -',
    ]);
  });
});

describe('outline change', () => {
  const before = [
    'main',
    '  e1 textbox "New task"',
    '  e2 button "Add task"',
    '  list "Tasks"',
    '    listitem "A"',
  ].join('\n');

  it('reports added lines under their parent, and a changed line by its ref', () => {
    const after = before.replace('e1 textbox "New task"', 'e1 textbox "New task" ="milk"') + '\n    listitem "B"';
    const { change, text } = diffOutlines(before, after);
    expect(change).toEqual({ added: ['listitem "B"'], removed: [], changed: ['e1 textbox "New task" ="milk"'] });
    expect(text).toBe('in main:\n~ e1 textbox "New task" ="milk"\nin list "Tasks":\n+ listitem "B"');
  });

  it('says when nothing changed, folds a long removed run into one line, and cuts at the size given', () => {
    expect(diffOutlines(before, before).text).toBe('The outline did not change.');
    const gone = diffOutlines(before, 'dialog "Hi"');
    expect(gone.change.removed).toHaveLength(5);
    expect(gone.text).toBe('+ dialog "Hi"\n- main … and 4 more removed lines');
    const many = Array.from({ length: 200 }, (_, i) => `e${i + 10} button "Row ${i}"`).join('\n');
    const cut = diffOutlines('main', `main\n${many}`, 300);
    expect(cut.text.length).toBeLessThan(400);
    expect(cut.text).toMatch(/… \d+ more changed lines: call page_snapshot for the whole outline$/);
    expect(cut.change.added).toHaveLength(200);
  });

  it('reads refs with a document or frame prefix too', () => {
    expect(refOfLine('  e12 button "Save"')).toBe('e12');
    expect(refOfLine('f1e3 link "Home"')).toBe('f1e3');
    expect(refOfLine('heading[1] "Tasks"')).toBeUndefined();
    expect(refOfLine('"plain text 42"')).toBeUndefined();
  });
});
