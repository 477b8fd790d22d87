import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PushAnswer } from '../../bridge/protocol/index.js';
import { http, onCleanup, tempDir } from '../helpers/bridge.js';
import { BIN } from '../helpers/cli.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { claimPage } from '../helpers/page-wire.js';
import { needStrace } from '../helpers/strace.js';

/**
 * Finding 8 of issue 37: the power-cut order. page-ids.jsonl, agent-ids.jsonl and agent-tokens.jsonl were made and
 * answered without an fsync of their folder; `token` and agent tokens were written with no fsync before their URL
 * or line was printed; the token file was made without an exclusive flag. The order is read from a trace of a real
 * bridge (strace -f -y, from its first instruction): for every file, write → fsync → rename or link → fsync of the
 * folder → the answer (or the printed line) that acknowledges it.
 */

interface Call {
  /** the line the call started on, and the one it finished on (the same unless another thread came between) */
  start: number;
  end: number;
  name: string;
  args: string;
  result: string;
}

/** The calls of an `strace -f -y -o` file, each with where it started and ended. */
function calls(text: string): Call[] {
  const out: Call[] = [];
  const open = new Map<string, Call>();
  text.split('\n').forEach((line, index) => {
    const unfinished = /^(\d+) +(\w+)\((.*) <unfinished \.\.\.>$/.exec(line);
    if (unfinished) {
      const call = { start: index, end: index, name: unfinished[2] ?? '', args: unfinished[3] ?? '', result: '' };
      open.set(unfinished[1] ?? '', call);
      out.push(call);
      return;
    }
    const resumed = /^(\d+) +<\.\.\. (\w+) resumed>(.*)\) += (.*)$/.exec(line);
    if (resumed) {
      const call = open.get(resumed[1] ?? '');
      if (call) {
        call.end = index;
        call.args += resumed[3] ?? '';
        call.result = resumed[4] ?? '';
        open.delete(resumed[1] ?? '');
      }
      return;
    }
    const whole = /^(\d+) +(\w+)\((.*)\) += (.*)$/.exec(line);
    if (whole)
      out.push({ start: index, end: index, name: whole[2] ?? '', args: whole[3] ?? '', result: whole[4] ?? '' });
  });
  return out;
}

/** The first call after `from` that `match` accepts and that succeeded (finished without an error). */
function find(all: Call[], match: (call: Call) => boolean, what: string, from = -1): Call {
  const found = all.find((call) => call.start > from && match(call) && !call.result.startsWith('-1'));
  if (!found) throw new Error(`the trace has no ${what} after line ${from + 1}`);
  return found;
}

const on = (path: string) => (call: Call) => call.args.includes(`<${path}>`) || call.args.includes(`"${path}"`);
const named =
  (...names: string[]) =>
  (call: Call) =>
    names.includes(call.name);

/**
 * For one acknowledgement: the last write to `file` before it, then an fsync of `file`, done before it; and when
 * `folder` is given, an fsync of the folder done before it and after the file was made (its first open).
 */
function durableBefore(all: Call[], ack: Call, file: string, folder?: string): void {
  const writes = all.filter((c) => named('write', 'pwrite64', 'writev')(c) && on(file)(c) && c.end < ack.start);
  const write = writes[writes.length - 1];
  expect(write, `a write to ${file} before the answer`).toBeDefined();
  const sync = find(all, (c) => named('fsync', 'fdatasync')(c) && on(file)(c), `fsync of ${file}`, write?.start ?? 0);
  expect(sync.end, `fsync of ${file} done before the answer`).toBeLessThan(ack.start);
  if (!folder) return;
  const made = find(
    all,
    (c) => named('openat')(c) && c.args.includes(`"${file}"`) && c.args.includes('O_CREAT'),
    `the open that made ${file}`,
  );
  const dir = all.find((c) => named('fsync')(c) && on(folder)(c) && c.start > made.start && c.end < ack.start);
  expect(dir, `an fsync of ${folder} after ${file} was made and before the answer`).toBeDefined();
}

/** The answer the main thread wrote on a socket that carries `text` (strace shows the first bytes of each write). */
function answerWith(all: Call[], pid: number, text: string, lines: string[]): Call {
  return find(
    all,
    (c) =>
      named('write', 'writev')(c) &&
      /<(TCP|UNIX)/.test(c.args) &&
      new RegExp(`^${pid} `).test(lines[c.start] ?? '') &&
      c.args.includes(text),
    `an answer with ${text}`,
  );
}

describe('the power-cut order of every file (issue 37, finding 8)', () => {
  it('token, page ids, agent ids, agent tokens, the journal, images and quick replies: on disk before they are answered', async (ctx) => {
    needStrace(ctx);
    const dataDir = tempDir();
    const appDir = join(dataDir, 'aiti-bridge');
    const out = join(tempDir('aiti-strace-'), 'trace');
    const traced = spawn(
      'strace',
      [
        '-f',
        '-qq',
        '-yy',
        '-s',
        '2048',
        '-o',
        out,
        '-e',
        'trace=openat,write,writev,pwrite64,fsync,fdatasync,rename,renameat,renameat2,link,linkat',
        process.execPath,
        BIN,
        '--port',
        '0',
        '--data-dir',
        dataDir,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, AITI_LOG: 'warn' } },
    );
    onCleanup(() => void traced.kill('SIGKILL'));
    onCleanup(() => {
      const node = Number(/^(\d+)/.exec(readFileSync(out, 'utf8'))?.[1] ?? 0);
      try {
        if (node) process.kill(node, 'SIGKILL');
      } catch {
        // gone already
      }
    });
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      traced.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = /listening on (http:\/\/\S+)/.exec(stderr);
        if (found?.[1]) resolve(found[1]);
      });
      traced.on('exit', (code) => reject(new Error(`the traced bridge exited with ${code}: ${stderr}`)));
    });
    const token = /#token=(\S+)/.exec(stderr)?.[1] ?? '';
    const window = (path: string, body?: unknown, method?: string) =>
      http(`${url}${path}`, {
        token: decodeURIComponent(token),
        ...(body !== undefined ? { body } : {}),
        ...(method ? { method } : {}),
      });

    const page = await claimPage(url);
    const agent = await connectAgent(url, { clientName: 'orderly' });
    const hello = await callTool(agent, 'aiti_hello', { agentId: 'keyed' });
    const agentKey = (hello.structuredContent as { agentKey: string }).agentKey;
    const made = await window('/bridge/agent-tokens', { name: 'devbox' });
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(1000)]);
    const pushed = await window('/bridge/push', {
      to: 'keyed',
      text: 'see this',
      images: [{ mimeType: 'image/png', data: png.toString('base64') }],
    });
    const msgId = (pushed.body as PushAnswer).delivered[0]?.msgId ?? '';
    expect(
      (await window('/bridge/quick-replies', { replies: [{ id: 'q', kind: 'answer', text: 'Q', uses: 0 }] }, 'PUT'))
        .status,
    ).toBe(200);
    // the bridge is strace's child (the execve line names it): killed, strace writes the last lines and ends
    const node = Number(/^(\d+)/.exec(readFileSync(out, 'utf8'))?.[1] ?? 0);
    process.kill(node, 'SIGKILL');
    await new Promise((resolve) => traced.once('exit', resolve));

    const text = readFileSync(out, 'utf8');
    const lines = text.split('\n');
    const all = calls(text);

    // the token: written whole to a temporary file, fsynced, linked (never over another), the folder fsynced, and only
    // then the line with the window's URL and the token on stderr
    const printed = find(
      all,
      (c) => named('write')(c) && c.args.startsWith('2<') && c.args.includes('listening on'),
      'the printed URL',
    );
    const link = find(
      all,
      (c) => named('link', 'linkat')(c) && c.args.includes(`${appDir}/token"`),
      'the token linked',
    );
    const temp = /"([^"]*\.token\.aiti-[^"]*\.tmp)"/.exec(link.args)?.[1] ?? '';
    durableBefore(all, link, temp);
    const tokenDir = find(all, (c) => named('fsync')(c) && on(appDir)(c), 'fsync of the data dir', link.start);
    expect(tokenDir.end).toBeLessThan(printed.start);

    // page ids, agent ids, agent tokens: each line fsynced, the folder of a file just made fsynced, then the answer
    durableBefore(all, answerWith(all, node, page.claim.secret, lines), join(appDir, 'page-ids.jsonl'), appDir);
    durableBefore(all, answerWith(all, node, agentKey, lines), join(appDir, 'agent-ids.jsonl'), appDir);
    const agentToken = /aiti_agent_[\w-]+/.exec(JSON.stringify(made.body))?.[0] ?? 'no token';
    durableBefore(all, answerWith(all, node, agentToken, lines), join(appDir, 'agent-tokens.jsonl'), appDir);

    // the push: its image fsynced with its folder, then its journal line, the journal's folders fsynced, the answer
    const pushAnswer = answerWith(all, node, msgId, lines);
    const imageId = /img-[0-9a-f]{16}/.exec(text)?.[0] ?? 'no image';
    durableBefore(all, pushAnswer, join(appDir, 'images', imageId), join(appDir, 'images'));
    const journal = /<([^>]*\/sessions\/keyed\/[^>]*\.jsonl)>/.exec(text)?.[1] ?? 'no journal file';
    durableBefore(all, pushAnswer, journal, join(appDir, 'sessions'));

    // quick replies: temporary file fsynced, renamed over the list, the folder fsynced, then 200
    const rename = find(
      all,
      (c) => named('rename', 'renameat', 'renameat2')(c) && c.args.includes(`${appDir}/quick-replies.json"`),
      'the rename of quick-replies.json',
    );
    const replyTemp = /"([^"]*\.quick-replies\.json\.aiti-[^"]*\.tmp)"/.exec(rename.args)?.[1] ?? '';
    durableBefore(all, rename, replyTemp);
    const repliesDir = find(all, (c) => named('fsync')(c) && on(appDir)(c), 'fsync after the rename', rename.start);
    const repliesAnswer = find(
      all,
      (c) => named('write', 'writev')(c) && /<TCP/.test(c.args) && c.args.includes('\\"replies\\"'),
      'the quick replies answer',
      rename.start,
    );
    expect(repliesDir.end).toBeLessThan(repliesAnswer.start);
  }, 120_000);
});
