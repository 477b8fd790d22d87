import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { onCleanup, tempDir } from './bridge.js';

/**
 * A real OpenSSH server on a high loopback port, for tunnels the way a developer opens them: its own host key, a
 * client key authorized for the current user, no PAM, its pid file in a temporary folder. Both ends of every
 * tunnel are this machine (no address outside it is ever used); what crosses is a real SSH connection.
 */
export interface Sshd {
  port: number;
  /** `ssh -N <forward…>` to this server; resolves once `listenPort` on `listenHost` accepts connections */
  tunnel(forward: string[], listenHost: string, listenPort: number): Promise<ChildProcess>;
  /** `ssh <options…> user@127.0.0.1 <command>`: a session that runs a command on the "dev box", as typed */
  session(options: string[], command: string): ChildProcess;
}

const SSHD = '/usr/sbin/sshd';

export function sshdUnavailable(): string | undefined {
  if (process.platform !== 'linux') return 'the sshd tunnel tests run on Linux';
  if (!existsSync(SSHD)) return `${SSHD} is missing (apt-get install openssh-server; .ci/run installs it)`;
  try {
    execFileSync('ssh', ['-V'], { stdio: 'ignore' });
  } catch {
    return 'the ssh client is missing (apt-get install openssh-client)';
  }
  return undefined;
}

/** A port nobody listens on now, on `host`. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startSshd(): Promise<Sshd> {
  const dir = tempDir('aiti-sshd-');
  chmodSync(dir, 0o700);
  const hostKey = join(dir, 'host_key');
  const clientKey = join(dir, 'client_key');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', clientKey]);
  const authorized = join(dir, 'authorized_keys');
  execFileSync('cp', [`${clientKey}.pub`, authorized]);
  chmodSync(authorized, 0o600);
  // privilege separation wants its empty directory, as in Debian's own unit
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${authorized}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'StrictModes no',
      'PermitRootLogin prohibit-password',
      'AllowTcpForwarding yes',
      'GatewayPorts no',
      'LogLevel ERROR',
    ].join('\n') + '\n',
  );
  const sshd = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  sshd.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  onCleanup(async () => {
    sshd.kill('SIGTERM');
    await exited(sshd);
  });
  const until = Date.now() + 10_000;
  while (!(await accepts('127.0.0.1', port))) {
    if (sshd.exitCode !== null) throw new Error(`sshd exited ${sshd.exitCode}: ${errors}`);
    if (Date.now() > until) throw new Error(`sshd did not listen on ${port} within 10 s: ${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const user = execFileSync('id', ['-un']).toString().trim();
  const client = [
    '-p',
    String(port),
    '-i',
    clientKey,
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    `UserKnownHostsFile=${join(dir, 'known_hosts')}`,
    '-o',
    'BatchMode=yes',
    '-o',
    'LogLevel=ERROR',
  ];
  return {
    port,
    session(options, command) {
      const ssh = spawn('ssh', [...client, ...options, `${user}@127.0.0.1`, command], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      onCleanup(async () => {
        ssh.kill('SIGKILL');
        await exited(ssh);
      });
      return ssh;
    },
    async tunnel(forward, listenHost, listenPort) {
      const ssh = spawn(
        'ssh',
        [
          '-N',
          '-p',
          String(port),
          '-i',
          clientKey,
          '-o',
          'StrictHostKeyChecking=no',
          '-o',
          `UserKnownHostsFile=${join(dir, 'known_hosts')}`,
          '-o',
          'ExitOnForwardFailure=yes',
          '-o',
          'BatchMode=yes',
          '-o',
          'LogLevel=ERROR',
          ...forward,
          `${user}@127.0.0.1`,
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let said = '';
      ssh.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
      onCleanup(async () => {
        ssh.kill('SIGTERM');
        await exited(ssh);
      });
      const deadline = Date.now() + 15_000;
      while (!(await accepts(listenHost, listenPort))) {
        if (ssh.exitCode !== null) throw new Error(`ssh ${forward.join(' ')} exited ${ssh.exitCode}: ${said}`);
        if (Date.now() > deadline) throw new Error(`ssh ${forward.join(' ')} did not listen within 15 s: ${said}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return ssh;
    },
  };
}
