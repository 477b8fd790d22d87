#!/usr/bin/env node
// Writes dist/bridge/shim/tools.json (run by scripts/build.js after the bridge step): what this version's bridge
// answers to initialize and tools/list, asked of a real bridge from dist/ on a free port, so the stdio shim can
// answer both at once without loading the server, and before any bridge runs.
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/client';

/** One 2026-07-28 request to the bridge; its result. */
async function modernRequest(url, method, params) {
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'aiti-build', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const res = await fetch(new URL('/mcp/mcp', url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } }),
  });
  // the answer is one event of an event stream (the bridge streams 2026-07-28 answers)
  const body = await res.text();
  const data = body.split('\n').find((line) => line.startsWith('data: {'));
  const answer = JSON.parse(data ? data.slice(6) : body);
  if (!answer.result) throw new Error(`the bridge did not answer ${method}: ${JSON.stringify(answer)}`);
  return answer.result;
}

const out = fileURLToPath(new URL('../dist/bridge/shim/tools.json', import.meta.url));
const { createBridge } = await import(new URL('../dist/bridge/index.js', import.meta.url).href);
const dataDir = mkdtempSync(join(tmpdir(), 'aiti-snapshot-'));
const bridge = await createBridge({ port: 0, dataDir });
try {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp/mcp', bridge.url));
  const client = new Client({ name: 'aiti-build', version: '1' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  // a 2026-07-28 client probes with server/discover and lists the tools in that revision's form: the shim gives
  // these answers while no bridge runs
  const discover = await modernRequest(bridge.url, 'server/discover', {});
  const modernTools = await modernRequest(bridge.url, 'tools/list', {});
  const snapshot = {
    protocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
    discover,
    modernTools,
    serverInfo: client.getServerVersion(),
    capabilities: client.getServerCapabilities(),
    instructions: client.getInstructions(),
    tools,
  };
  await transport.terminateSession().catch(() => undefined);
  await client.close();
  writeFileSync(`${out}.${process.pid}.tmp`, JSON.stringify(snapshot) + '\n');
  renameSync(`${out}.${process.pid}.tmp`, out);
  console.error(`build: ${tools.length} tools in dist/bridge/shim/tools.json`);
} finally {
  await bridge.close();
  rmSync(dataDir, { recursive: true, force: true });
}
