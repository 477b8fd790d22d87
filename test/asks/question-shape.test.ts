import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { Asks } from '../../bridge/asks/asks.js';
import { createLogger } from '../../bridge/log.js';
import { AskOpened, AskQuestion, AskRecord, AskView, type MessagesAnswer } from '../../bridge/protocol/index.js';
import { http, startBridge, tempDir } from '../helpers/bridge.js';
import { askLedger, openInbox } from '../helpers/inbox.js';
import { windowState } from '../helpers/window.js';

/**
 * An ask's question is written once (bridge/protocol/asks.ts `AskQuestion`, issue #43): the card the window shows,
 * the journal's `ask_opened` line, the card shown again after a restart and the record in History all carry every
 * field of it. The question asked here fills every field the schema has, read from its `.shape`, so a field added
 * to the question later is asked and looked for without touching this test.
 */

const log = createLogger('test', 'silent');

/**
 * A value `schema` accepts, every optional field filled, strings made from `key` (valid ids too). A field of a type
 * not known here fails the test by name, so the sample never silently leaves a field out.
 */
function sampleOf(schema: z.ZodType, key: string): unknown {
  if (schema instanceof z.ZodOptional) return sampleOf(schema.unwrap() as z.ZodType, key);
  if (schema instanceof z.ZodString) return `${key}-1`;
  if (schema instanceof z.ZodBoolean) return true;
  if (schema instanceof z.ZodNumber) return 7;
  if (schema instanceof z.ZodEnum) return schema.options[0];
  if (schema instanceof z.ZodArray)
    return [`${key}-a`, `${key}-b`].map((k) => sampleOf(schema.element as z.ZodType, k));
  if (schema instanceof z.ZodUnion) return sampleOf(schema.options[0] as z.ZodType, key);
  if (schema instanceof z.ZodRecord) return { [`${key}-k`]: sampleOf(schema.valueType as z.ZodType, key) };
  // JsonValue (a lazy union): any JSON, so one of each kind
  if (schema instanceof z.ZodLazy) return { [key]: ['text', 2, true, null, { nested: 'yes' }] };
  if (schema instanceof z.ZodObject)
    return Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [k, sampleOf(v as z.ZodType, k)]));
  throw new Error(`field "${key}": teach sampleOf the zod type ${schema.constructor.name}`);
}

const FIELDS = Object.keys(AskQuestion.shape);
const question = sampleOf(AskQuestion, 'question') as AskQuestion;

/** The question's fields as `seen` holds them: equal to what was asked, field by field, none missing. */
function expectEveryField(seen: unknown, where: string): void {
  const fields = (seen ?? {}) as Record<string, unknown>;
  for (const field of FIELDS) expect(fields[field], `${where}: field "${field}"`).toEqual(question[field as never]);
}

function journalLines(dir: string): Array<{ type: string; ask?: unknown }> {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as { type: string; ask?: unknown });
}

describe('an ask question', () => {
  it('the sample asks every field of the question, as the question schema accepts it', () => {
    expect(FIELDS.length).toBeGreaterThan(5);
    expect(Object.keys(question)).toEqual(FIELDS);
    expect(AskQuestion.parse(question)).toEqual(question);
  });

  it('every field reaches the card, the journal line, the card after a restart and the record in History', async () => {
    const dataDir = tempDir();
    const sessions = join(dataDir, 'aiti-bridge', 'sessions');
    const { inbox, journal } = openInbox(sessions, { log });
    const ledger = askLedger(journal, inbox, log);
    const cards: unknown[] = [];
    const asks = new Asks(
      { broadcast: (event, data) => void (event === 'ask' && cards.push(data)) },
      undefined,
      ledger,
    );
    const ask = asks.create({ ...question, async: true, timeoutMs: 600_000 });
    await ask.opened;

    // the card the window is sent
    expect(cards).toHaveLength(1);
    expectEveryField(cards[0], 'the card');
    expectEveryField(AskView.parse(cards[0]), 'the card read through AskView');

    // the journal's line, on disk
    const opened = journalLines(sessions).filter((line) => line.type === 'ask_opened');
    expect(opened).toHaveLength(1);
    expectEveryField(opened[0]?.ask, 'the ask_opened line');
    expectEveryField(AskOpened.parse(opened[0]?.ask), 'the ask_opened line read through AskOpened');
    await inbox.close();

    // a real bridge on the same data dir shows it again, from that line
    const bridge = await startBridge({ dataDir });
    const [shown, ...others] = (await windowState(bridge.url, bridge.token)).asks;
    expect(others).toEqual([]);
    expect(shown?.askId).toBe(ask.askId);
    expectEveryField(shown, 'the card after a restart');

    // the human declines it; History keeps its record
    const declined = await http(`${bridge.url}/bridge/answer`, {
      token: bridge.token,
      body: { askId: ask.askId, action: 'reject', reason: 'not_now' },
    });
    expect(declined.status).toBe(200);
    const history = await http(`${bridge.url}/bridge/messages?agentId=${question.agentId}&limit=1000`, {
      token: bridge.token,
    });
    const records = (history.body as MessagesAnswer).messages.filter((m) => m.kind === 'ask');
    expect(records).toHaveLength(1);
    expect(records[0]?.payload).toMatchObject({ askId: ask.askId, status: 'rejected', reason: 'not_now' });
    expectEveryField(records[0]?.payload, 'the record');
    expectEveryField(AskRecord.parse(records[0]?.payload), 'the record read through AskRecord');
  });
});
