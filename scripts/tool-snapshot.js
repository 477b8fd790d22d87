#!/usr/bin/env node
// Writes dist/bridge/shim/tools.json (run by scripts/build.js after the bridge step): what this version's bridge
// answers to initialize and tools/list, asked of a real bridge from dist/ on a free port, so the stdio shim can
// answer both at once without loading the server, and before any bridge runs.
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/client';

const out = fileURLToPath(new URL('../dist/bridge/shim/tools.json', import.meta.url));
const { createBridge } = await import(new URL('../dist/bridge/index.js', import.meta.url).href);
const dataDir = mkdtempSync(join(tmpdir(), 'aiti-snapshot-'));
const bridge = await createBridge({ port: 0, dataDir });
try {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp/mcp', bridge.url));
  const client = new Client({ name: 'aiti-build', version: '1' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const snapshot = {
    protocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
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
