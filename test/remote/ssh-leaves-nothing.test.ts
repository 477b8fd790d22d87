import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { tempDir } from '../helpers/bridge.js';
import { BIN } from '../helpers/cli.js';
import { freePort, sshdUnavailable, startSshd } from '../helpers/sshd.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Issue 41, finding 3: `ssh -L 8777:127.0.0.1:8777 devbox aiti-bridge` (README) left the bridge running on the dev
 * box when ssh closed (no terminal, so no hang-up reached it), and the next run failed "port … is in use". The
 * recipe (docs/REMOTE.md) now asks for a terminal, `ssh -t`: its hang-up ends the bridge, which closes cleanly.
 */
const unavailable = sshdUnavailable();

async function answers(url: string): Promise<boolean> {
  return fetch(`${url}/bridge/health`).then(
    (res) => res.ok,
    () => false,
  );
}

describe('the ssh recipe for a bridge on a dev box', () => {
  it.skipIf(unavailable)('ssh -t: closing ssh ends the bridge it started, and nothing is left to clear', async () => {
    const sshd = await startSshd();
    const port = await freePort();
    const dataDir = tempDir();
    const url = `http://127.0.0.1:${port}`;
    // as docs/REMOTE.md writes it; -tt because this test's stdin is no terminal (a person's is: -t is enough)
    const ssh = sshd.session(
      ['-tt', '-L', `${await freePort()}:127.0.0.1:${port}`],
      `${process.execPath} ${BIN} --port ${port} --data-dir ${dataDir}`,
    );
    await waitFor(() => answers(url), 30_000, 'the bridge on the dev box to answer');
    // the record follows the listening socket (written and fsynced off the main thread): it may come a moment later
    await waitFor(() => existsSync(join(dataDir, 'aiti-bridge', 'running.json')), 15_000, 'its running record');

    ssh.kill('SIGTERM'); // the laptop closes the session (a closed terminal, a dropped connection)
    await waitFor(async () => !(await answers(url)), 15_000, 'the bridge to end with its ssh session');
    // it closed as on SIGTERM: its record is gone, and the port is free for the next run
    await waitFor(() => !existsSync(join(dataDir, 'aiti-bridge', 'running.json')), 5000, 'the record removed');
  });
});
