import { describe, expect, it } from 'vitest';
import * as errors from '../../bridge/errors.js';
import { statusOf } from '../../bridge/http/errors.js';
import { http, startBridge } from '../helpers/bridge.js';

const EXPECTED_STATUS: Record<string, number> = {
  Invalid: 400,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  Refused: 409,
  TooMany: 429,
  RateLimited: 429,
  Unavailable: 503,
};

describe('domain errors are mapped to HTTP in one place', () => {
  it('every domain error class of bridge/errors.ts has its status (a new class must be added here and there)', () => {
    const classes = Object.entries(errors).filter(([name]) => name !== 'BridgeError');
    expect(classes.map(([name]) => name).sort()).toEqual(Object.keys(EXPECTED_STATUS).sort());
    for (const [name, ErrorClass] of classes) {
      const error = new ErrorClass('what went wrong', 'field');
      expect(error, name).toBeInstanceOf(errors.BridgeError);
      expect(error.name).toBe(name);
      expect(statusOf(error), name).toBe(EXPECTED_STATUS[name]);
    }
  });

  it('a domain error thrown by the asks reaches the window as its status with the message and field', async () => {
    const bridge = await startBridge();
    const res = await http(`${bridge.url}/bridge/answer`, {
      token: bridge.token,
      body: { askId: 'a-missing', action: 'answer', value: true },
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: expect.stringContaining('no ask "a-missing"'), field: 'askId' });
  });

  it('a domain error thrown by the page registry reaches the page as its status (an unknown page answers like a wrong secret: no probing)', async () => {
    const bridge = await startBridge();
    const res = await http(`${bridge.url}/bridge/register`, {
      body: { pageId: 'p404', secret: 's', frameIds: ['f1'] },
    });
    // Forbidden, not NotFound: an unknown page and a wrong secret read the same (no probing oracle)
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      error: expect.stringContaining('page "p404" is not known here'),
      field: 'secret',
    });
  });
});
