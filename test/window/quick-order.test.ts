import { describe, expect, it } from 'vitest';
import { byUse } from '../../renderer/src/quick/useQuickReplies.js';
import { withReply } from '../../renderer/src/quick/context.js';

describe('quick replies', () => {
  it('come most used first; among as many uses, the most recently used', () => {
    const reply = (id: string, uses: number, lastUsed?: string) => ({
      id,
      kind: 'answer' as const,
      text: id,
      uses,
      ...(lastUsed ? { lastUsed } : {}),
    });
    const list = [
      reply('recent-once', 1, '2026-11-30T12:00:00.000Z'),
      reply('often', 5, '2026-11-01T12:00:00.000Z'),
      reply('never', 0),
      reply('older-once', 1, '2026-11-02T12:00:00.000Z'),
    ];
    expect(byUse(list).map((r) => r.id)).toEqual(['often', 'recent-once', 'older-once', 'never']);
  });

  it('go after what the field holds, a space between, or alone in an empty field', () => {
    expect(withReply('', 'Ship it')).toBe('Ship it');
    expect(withReply('  ', 'Ship it')).toBe('Ship it');
    expect(withReply('Yes:', 'Ship it')).toBe('Yes: Ship it');
    expect(withReply('Yes:\n', 'Ship it')).toBe('Yes:\nShip it');
  });
});
