import { spawn } from 'node:child_process';
import { onCleanup } from './bridge.js';
import { eachLine } from './cli.js';
import { waitFor } from './wait.js';

/**
 * A port squatter: another program (any local user may run one) that binds the bridge's port once the bridge
 * stopped. A real second process with a plain HTTP server, answering like a bridge would (health, a made-up token
 * proof, `{}` for everything else), and writing down every request it gets, headers and all.
 */
export interface Squatter {
  /** every request so far: method, URL (with its query) and headers */
  requests(): SquattedRequest[];
  /** everything it was sent, as one text to search for a token */
  seen(): string;
  /** the TCP port it listens on (the one it was given, or the one port 0 got) */
  port(): number;
  /** waits until it got a request whose URL contains `part` */
  waitForRequest(part: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface SquattedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

const SCRIPT = `
import { createServer } from 'node:http';
const [host, port, socketPath] = process.argv.slice(1);
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    process.stdout.write(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }) + '\\n');
    res.setHeader('content-type', 'application/json');
    if (req.url.includes('/bridge/health')) return res.end(JSON.stringify({ ok: true, version: '9.9.9' }));
    if (req.url.includes('/bridge/token-proof')) return res.end(JSON.stringify({ proof: 'made-up' }));
    if (req.url.includes('/bridge/device/challenge'))
      return res.end(JSON.stringify({ proof: 'bWFkZS11cA', challenge: 'c'.repeat(32) }));
    res.end('{}');
  });
});
const ready = () => process.stdout.write('listening ' + (typeof server.address() === 'object' ? server.address().port : '') + '\\n');
if (socketPath) server.listen(socketPath, ready);
else server.listen(Number(port), host, ready);
`;

/**
 * Starts the squatter on `host:port` (or a Unix socket path); resolves once it listens. `uid`/`gid` run it as
 * another local user (as root: `nobody` is 65534).
 */
export async function squat(where: {
  host?: string;
  port?: number;
  socketPath?: string;
  uid?: number;
  gid?: number;
}): Promise<Squatter> {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', SCRIPT, where.host ?? '127.0.0.1', String(where.port ?? 0), where.socketPath ?? ''],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(where.uid !== undefined ? { uid: where.uid, gid: where.gid ?? where.uid, cwd: '/' } : {}),
    },
  );
  const lines: SquattedRequest[] = [];
  let stderr = '';
  let listening = false;
  let port = 0;
  eachLine(child.stdout, (line) => {
    if (line.startsWith('listening')) {
      listening = true;
      port = Number(line.split(' ')[1]) || 0;
    } else lines.push(JSON.parse(line) as SquattedRequest);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  onCleanup(stop);
  await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`the squatter could not start: ${stderr}`);
      return listening;
    },
    10_000,
    'the squatter to listen',
  );
  return {
    requests: () => [...lines],
    port: () => port,
    seen: () => JSON.stringify(lines),
    waitForRequest: (part, timeoutMs = 15_000) =>
      waitFor(() => lines.some((r) => r.url.includes(part)), timeoutMs, `a request for ${part} at the squatter`),
    stop,
  };
}
