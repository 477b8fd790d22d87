import { describe, expect, it, vi } from 'vitest';
import { http, rawGet, startBridge } from '../helpers/bridge.js';

/**
 * Issue 29: the edges of the guards a mutation run found untested. Each is what a client on this machine (or an
 * attacker's page) sends, and what it gets back: a Host or peer the bridge must serve, a look-alike it must not, a
 * token written the way some clients write it, and the CORS answer a browser decides by.
 */

describe('the Host check', () => {
  it('serves every loopback name a client on this machine may write, with or without a port', async () => {
    const bridge = await startBridge();
    const port = bridge.port;
    for (const host of [
      `[::1]:${port}`,
      '[::1]',
      `localhost:${port}`,
      'localhost',
      `LocalHost:${port}`,
      `app.localhost:${port}`,
      `127.100.20.3:${port}`,
      '127.255.255.254',
    ]) {
      expect((await rawGet(`${bridge.url}/bridge/health`, { host })).status, host).toBe(200);
    }
  });

  it('refuses names that only look loopback, naming the Host it refused', async () => {
    const bridge = await startBridge();
    for (const host of [
      'a127.0.0.1',
      `x127.0.0.1:${bridge.port}`,
      '127.0.0.1.nip.io',
      '1270.0.0.1',
      '127.0.0.1234',
      'localhost.evil.example',
      'evil-localhost',
      '::1',
    ]) {
      const res = await rawGet(`${bridge.url}/bridge/health`, { host });
      expect(res.status, host).toBe(403);
      expect(JSON.parse(res.body), host).toMatchObject({ error: expect.stringContaining(`Host "${host}"`) });
    }
  });
});

/** What the bridge writes on the terminal while `start` runs. */
async function terminalOf<T>(start: () => Promise<T>): Promise<{ value: T; terminal: string }> {
  const written: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  try {
    return { value: await start(), terminal: written.join('') };
  } finally {
    spy.mockRestore();
  }
}

const NOT_LOCAL_WARNING = 'but only programs on this machine are served';

describe('the peer check', () => {
  it('serves a client that reaches a bridge on ::1 over IPv6 loopback, and --host ::1 is local: no warning', async () => {
    const { value: bridge, terminal } = await terminalOf(() => startBridge({ host: '::1' }));
    expect(terminal).not.toContain(NOT_LOCAL_WARNING);
    expect(bridge.url).toBe(`http://[::1]:${bridge.port}`);
    expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
    expect((await http(`${bridge.url}/bridge/sessions`, { token: bridge.token })).status).toBe(200);
  });

  it('serves loopback clients of a dual-stack bridge (--host ::), which Node reports as ::ffff:127.0.0.1 or ::1', async () => {
    const { value: bridge, terminal } = await terminalOf(() => startBridge({ host: '::' }));
    // listening on every address is worth a word, even though other machines get 403
    expect(terminal).toContain(`listening on ::, ${NOT_LOCAL_WARNING}`);
    const v4 = `http://127.0.0.1:${bridge.port}`;
    const v6 = `http://[::1]:${bridge.port}`;
    for (const base of [v4, v6]) {
      expect((await http(`${base}/bridge/health`)).status, base).toBe(200);
      expect((await http(`${base}/bridge/sessions`, { token: bridge.token })).status, base).toBe(200);
    }
  });

  it('refuses only headers a proxy adds, not a header whose value happens to name one', async () => {
    const bridge = await startBridge();
    const res = await http(`${bridge.url}/bridge/sessions`, {
      token: bridge.token,
      headers: { 'x-trace-note': 'via', 'x-comment': 'forwarded' },
    });
    expect(res.status).toBe(200);
  });
});

describe('the token', () => {
  it('is read from an Authorization header written with a lower-case scheme or extra spaces', async () => {
    const bridge = await startBridge();
    for (const authorization of [`bearer ${bridge.token}`, `Bearer  ${bridge.token}`, `BEARER ${bridge.token} `]) {
      const res = await http(`${bridge.url}/bridge/sessions`, { headers: { authorization } });
      expect(res.status, authorization).toBe(200);
    }
  });

  it('a wrong one is refused saying so, a missing one saying where the token is', async () => {
    const bridge = await startBridge();
    const wrong = await http(`${bridge.url}/bridge/sessions`, { token: 'not-the-token' });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'wrong token' } });
    const missing = await http(`${bridge.url}/bridge/sessions`, { headers: { authorization: 'Basic eDp5' } });
    expect(missing.status).toBe(401);
    expect((missing.body as { error: string }).error).toContain('send Authorization: Bearer <token>');
    expect((missing.body as { error: string }).error).toContain('<data-dir>/aiti-bridge/token');
  });

  it('in the query is refused on every route but the window stream, even with role=ai or on the stream path itself', async () => {
    const bridge = await startBridge();
    const token = encodeURIComponent(bridge.token);
    for (const path of [
      `/bridge/sessions?role=ai&token=${token}`,
      `/bridge/sse/ai?token=${token}`,
      `/aiti/bridge/sse/ai?token=${token}`,
    ]) {
      const res = await http(`${bridge.url}${path}`);
      expect(res.status, path).toBe(401);
      const { error } = res.body as { error: string };
      expect(error, path).toContain('?token= is accepted only on GET /bridge/sse?role=ai');
      expect(error, path).toContain('send Authorization: Bearer <token> to GET /bridge/s');
    }
    // HEAD is routed like GET; it is no EventSource
    const head = await fetch(`${bridge.url}/bridge/sse?role=ai&token=${token}`, { method: 'HEAD' });
    expect(head.status).toBe(401);
  });

  it('given twice in the query is no token, even on the window stream and even when both are right', async () => {
    const bridge = await startBridge();
    const token = encodeURIComponent(bridge.token);
    const res = await http(`${bridge.url}/bridge/sse?role=ai&token=${token}&token=${token}`);
    expect(res.status).toBe(401);
    expect((res.body as { error: string }).error).toMatch(/^missing token: send Authorization: Bearer <token>/);
  });
});

describe('the zones', () => {
  it("the human's token on this machine is the desk: the window is told so when it asks who it is", async () => {
    const bridge = await startBridge();
    const res = await http(`${bridge.url}/bridge/whoami`, { token: bridge.token });
    expect(res).toMatchObject({ status: 200, body: { party: 'desk' } });
  });

  it('a role in the query of another route does not turn it into a stream', async () => {
    const bridge = await startBridge();
    for (const role of ['page', 'ai']) {
      const res = await http(`${bridge.url}/bridge/health?role=${role}`);
      expect(res, role).toMatchObject({ status: 200, body: { ok: true } });
    }
  });

  it('a stream without a known role is a 400 that names the roles', async () => {
    const bridge = await startBridge();
    const res = await http(`${bridge.url}/bridge/sse`);
    expect(res).toMatchObject({ status: 400, body: { field: 'role', error: 'query "role" must be "page" or "ai"' } });
  });
});

describe('CORS on page routes', () => {
  it('answers a browser preflight for a JSON POST from any dev server, so the page agent may send it', async () => {
    const bridge = await startBridge();
    const res = await fetch(`${bridge.url}/bridge/event`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')?.split(/,\s*/)).toEqual(['GET', 'POST', 'OPTIONS']);
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toBe('content-type');
    expect(res.headers.get('access-control-max-age')).toBe('600');
  });

  it('lets the page read when a refused request may come back (Retry-After is exposed)', async () => {
    const bridge = await startBridge();
    const res = await fetch(`${bridge.url}/bridge/claim`, {
      method: 'POST',
      headers: { origin: 'http://localhost:5173', 'content-type': 'application/json' },
      body: '{}',
    });
    await res.body?.cancel();
    expect(res.headers.get('access-control-expose-headers')).toBe('Retry-After');
  });
});
