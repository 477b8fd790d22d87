import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import type { AskRecord, Message } from '../../bridge/protocol/index.js';
import { historyMarkdown } from '../../renderer/src/inbox/export.js';

/**
 * Issue 38, Low 10: the Markdown export kept agent-written `<img src=remote>`, `<iframe>` and `javascript:` links
 * verbatim, so a viewer that renders inline HTML called the agent's server (and ran its links) when the history was
 * read. The export is read here by such a viewer: markdown-it with HTML on, as many editors and wikis render it.
 */
const viewer = new MarkdownIt({ html: true, linkify: false });

const HOSTILE = [
  'look <img src="https://attacker.example/pixel?who=me"> here',
  '<iframe src="https://attacker.example/frame"></iframe>',
  '[click me](javascript:alert(document.cookie)) and ![x](https://attacker.example/i.png)',
  '<javascript:alert(1)> \\[still text\\](https://attacker.example)',
].join('\n');

const note = (text: string): Message => ({
  id: 'm1',
  agentId: 'claude',
  from: 'agent',
  kind: 'agent_note',
  text,
  status: 'consumed',
  at: '2026-12-01T10:00:00.000Z',
});

const ask: AskRecord = {
  askId: 'ask-1',
  kind: 'user_choose',
  agentId: 'claude',
  prompt: HOSTILE,
  choices: ['<img src=https://attacker.example/choice>', 'b'],
  async: false,
  shown: true,
  createdAt: '2026-12-01T10:00:00.000Z',
  endedAt: '2026-12-01T10:01:00.000Z',
  status: 'answered',
  value: '<img src=https://attacker.example/choice>',
  decidedBy: 'human',
};

describe('the Markdown export is text, whatever the agent wrote', () => {
  it('keeps no HTML, image or link of an agent for a viewer to load or follow', () => {
    const exported = historyMarkdown(
      [note(HOSTILE), { ...note(''), id: 'm2', kind: 'ask', payload: ask, text: undefined }],
      'all',
    );
    const html = viewer.render(exported);
    expect(html).not.toMatch(/<(img|iframe|a|script)\b|href=/i);
    // every word is still there, to read
    expect(html).toContain('&lt;img src=&quot;https://attacker.example/pixel?who=me&quot;&gt;');
    expect(html).toContain('[click me](javascript:alert(document.cookie))');
  });
});
