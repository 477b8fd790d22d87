// The one SSE reader the shim and the desktop app share (bridge/protocol/sse.ts): however the stream is cut into
// chunks, and whichever line ending the server uses, the same events come out.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseParser, type SseEvent } from '../../bridge/protocol/sse.js';

const STREAM = [
  ': a comment the parser skips',
  'event: state',
  'data: {"asks":[]}',
  '',
  'id: 7',
  'data:no space after the colon',
  'data: and a second line',
  '',
  'event: ask',
  'data: {"askId":"a1"}',
  '',
  '',
];
const EVENTS: SseEvent[] = [
  { event: 'state', data: '{"asks":[]}' },
  { event: 'message', data: 'no space after the colon\nand a second line' },
  { event: 'ask', data: '{"askId":"a1"}' },
];

const feed = (text: string, cuts: number[]) => {
  const parser = new SseParser();
  const events: SseEvent[] = [];
  let at = 0;
  for (const cut of [...cuts.filter((c) => c < text.length)].sort((a, b) => a - b)) {
    events.push(...parser.push(text.slice(at, cut)));
    at = cut;
  }
  events.push(...parser.push(text.slice(at)));
  return events;
};

describe('the SSE parser', () => {
  it('reads the same events from LF and CRLF streams, whole or cut anywhere', () => {
    for (const newline of ['\n', '\r\n']) {
      const text = STREAM.join(newline);
      expect(feed(text, [])).toEqual(EVENTS);
      fc.assert(
        fc.property(fc.array(fc.nat({ max: text.length }), { maxLength: 12 }), (cuts) => {
          expect(feed(text, cuts)).toEqual(EVENTS);
        }),
      );
    }
  });

  it('keeps an event whose blank line has not come yet', () => {
    const parser = new SseParser();
    expect(parser.push('event: ask\ndata: {"askId":"a2"}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'ask', data: '{"askId":"a2"}' }]);
  });
});
