import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { cpuSplit } from './bridge-process.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** One POST over a keep-alive node:http agent (much cheaper for the client than fetch, which would be the bottleneck). */
export function post(agent: Agent, url: URL, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface LoadResult {
  rate: number;
  /** the server process's CPU per request, µs: user (its JavaScript) and system (sockets, files) */
  userUs: number;
  systemUs: number;
  /** the sending client's CPU per request (this process), µs */
  clientUs: number;
}

/**
 * Sends `total` POSTs to `url`, `inFlight` at a time over keep-alive connections, after 200 to warm up; each must
 * answer `status`. The same client for every server, so the rows compare the servers.
 */
export async function postLoad(options: {
  url: URL;
  pid: number;
  headers?: Record<string, string>;
  body: (i: number) => string;
  status: number;
  total: number;
  inFlight: number;
}): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.inFlight });
  try {
    const one = async (i: number) => {
      const status = await post(agent, options.url, options.headers ?? {}, options.body(i));
      if (status !== options.status) throw new Error(`POST ${options.url.pathname} answered ${status}`);
    };
    for (let i = 0; i < 200; i++) await one(i);
    const cpu = cpuSplit(options.pid);
    const client = process.cpuUsage();
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < options.total) await one(next++);
    };
    await Promise.all(Array.from({ length: options.inFlight }, worker));
    const seconds = (performance.now() - started) / 1000;
    const after = cpuSplit(options.pid);
    const clientCpu = process.cpuUsage(client);
    return {
      rate: options.total / seconds,
      userUs: ((after.user - cpu.user) * 1e6) / options.total,
      systemUs: ((after.system - cpu.system) * 1e6) / options.total,
      clientUs: (clientCpu.user + clientCpu.system) / options.total,
    };
  } finally {
    agent.destroy();
  }
}

// The ceiling of any HTTP path on this machine: a bare node:http server, and Koa with the one middleware that
// answers; each reads the request body (as the bridge does) and answers 204.
const FLOOR_SERVER = `
const { createServer } = await import('node:http');
let handler = (req, res) => { req.resume(); req.on('end', () => { res.statusCode = 204; res.end(); }); };
if (process.argv[1] === 'koa') {
  const { default: Koa } = await import('koa');
  const app = new Koa();
  // the body read as the bare server reads it, so the two floors differ by Koa alone
  app.use((ctx) => new Promise((resolve) => {
    ctx.req.resume();
    ctx.req.on('end', () => { ctx.status = 204; resolve(); });
  }));
  handler = app.callback();
}
const server = createServer(handler);
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

/** A floor server in its own process (as the bridge runs in its own), answering 204 to every POST. */
export async function floorServer(kind: 'node' | 'koa'): Promise<{ url: URL; pid: number; stop: () => void }> {
  const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', FLOOR_SERVER, kind], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', (code) => reject(new Error(`the ${kind} floor server exited with ${code}`)));
  });
  return { url: new URL(`http://127.0.0.1:${port}/`), pid: child.pid ?? 0, stop: () => child.kill() };
}
