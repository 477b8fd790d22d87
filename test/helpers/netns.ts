import { execFileSync, spawn } from 'node:child_process';
import { onCleanup } from './bridge.js';

/**
 * A real second machine on the network, as far as the bridge can tell: a network namespace joined to this one by
 * a veth pair, each end with its own address. Needs root (CI runs as root); `reason` says why it is unavailable.
 */
export interface LanPeer {
  /** this side's address, which the peer reaches the bridge on */
  hostAddress: string;
  /** the peer's own address */
  peerAddress: string;
  /** runs `node --input-type=module -e <script> <args…>` inside the namespace; resolves with its stdout */
  node(script: string, args: string[]): Promise<string>;
}

export function lanPeerUnavailable(): string | undefined {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  if (process.getuid?.() !== 0) return 'needs root to create a network namespace (CI runs as root)';
  try {
    execFileSync('ip', ['netns', 'list'], { stdio: 'ignore' });
  } catch {
    return 'the ip command (iproute2) is missing';
  }
  return undefined;
}

let made = 0;

export function createLanPeer(): LanPeer {
  const n = (process.pid % 200) * 50 + (made++ % 50);
  const name = `aiti-lan-${process.pid}-${made}`;
  const hostIf = `aiti${n}a`;
  const peerIf = `aiti${n}b`;
  // 10.231.0.0/16 cut into /30 links, one per peer of this run
  const base = (n % 16000) * 4;
  const octet = (offset: number) => `10.231.${Math.floor((base + offset) / 256)}.${(base + offset) % 256}`;
  const hostAddress = octet(1);
  const peerAddress = octet(2);
  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
  ip('netns', 'add', name);
  onCleanup(() => {
    try {
      ip('link', 'del', hostIf);
    } catch {
      // gone with the namespace
    }
    ip('netns', 'del', name);
  });
  ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', peerIf);
  ip('link', 'set', peerIf, 'netns', name);
  ip('addr', 'add', `${hostAddress}/30`, 'dev', hostIf);
  ip('link', 'set', hostIf, 'up');
  ip('netns', 'exec', name, 'ip', 'addr', 'add', `${peerAddress}/30`, 'dev', peerIf);
  ip('netns', 'exec', name, 'ip', 'link', 'set', peerIf, 'up');
  ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  return {
    hostAddress,
    peerAddress,
    node: (script, args) =>
      new Promise((resolve, reject) => {
        const child = spawn(
          'ip',
          ['netns', 'exec', name, process.execPath, '--input-type=module', '-e', script, ...args],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`peer exited ${code}: ${err}`))));
      }),
  };
}

/** Runs in the namespace: each request over node:http (which lets a client write any Host); answers as JSON. */
export const PEER_SCRIPT = `
import { request } from 'node:http';
const [base, list] = process.argv.slice(1);
const answers = [];
for (const r of JSON.parse(list)) {
  answers.push(await new Promise((resolve) => {
    const req = request(new URL(r.path, base), { method: r.method, headers: r.headers }, (res) => {
      let body = '';
      const done = () => resolve({ name: r.name, status: res.statusCode, body });
      res.on('data', (c) => (body += c));
      res.on('end', done);
      // a stream that was let in never ends: what it sent in its first second is enough to see
      setTimeout(() => (done(), req.destroy()), 1000);
    });
    req.on('upgrade', (res) => resolve({ name: r.name, status: res.statusCode, body: 'upgraded' }));
    req.on('error', (e) => resolve({ name: r.name, status: 0, body: e.code || e.message }));
    req.end(r.body);
  }));
}
process.stdout.write(JSON.stringify(answers));
`;

export interface PeerAnswer {
  name: string;
  status: number;
  body: string;
}
