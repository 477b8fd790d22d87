import { readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import type Koa from 'koa';
import type { BridgeContext } from '../context.js';
import { baseApp, noRoute, stripPrefix, withLimits } from '../http/app.js';
import { isLoopbackHostname } from '../http/guard.js';
import { streamsByRole, type Zones } from '../http/zones.js';
import { StartupError } from '../startup-error.js';
import { identifyCredential, requireCredential } from './guard.js';

/**
 * `--remote [HOST:]PORT`: a second server, beside the local listener, for the human's devices and agents on other
 * machines. The same zones with their own guards (remote/guard.ts): the open zone (health, the window's files, the
 * pairing step, the agent-token proof) and, with --remote-pages, the page routes serve anyone; everything else
 * needs a device or agent token. There is no peer or Host check here on purpose: those say nothing about who is
 * calling once a tunnel delivers the request.
 */
export function createRemoteApp(bridge: BridgeContext, zones: Zones): Koa {
  const app = baseApp(bridge);
  app.use(withLimits(bridge));
  app.use(stripPrefix());
  app.use(streamsByRole());
  app.use(identifyCredential(bridge));
  app.use(zones.open.routes());
  if (bridge.config.remotePages) app.use(zones.page.routes());
  app.use(requireCredential());
  app.use(zones.window.routes());
  app.use(zones.desk.routes());
  app.use(zones.mcp.routes());
  app.use(noRoute());
  return app;
}

export interface RemoteListener {
  server: Server;
  port: number;
  /** where devices and agents reach it: --remote-url, or the listener's own address */
  url: string;
  tls: boolean;
}

function readPem(path: string, flag: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new StartupError(`cannot read ${flag} "${path}": ${(error as Error).message}`);
  }
}

/** An address a phone on the same network can reach when the listener is on every interface. */
function lanAddress(): string | undefined {
  for (const addresses of Object.values(networkInterfaces())) {
    const found = addresses?.find((a) => a.family === 'IPv4' && !a.internal);
    if (found) return found.address;
  }
  return undefined;
}

/**
 * The remote listener's server, not listening yet: made before the local listener listens, so a TLS file that
 * cannot be read stops the bridge before anything was opened.
 */
export function remoteServer(bridge: BridgeContext, handler: RequestListener): { server: Server; tls: boolean } {
  const { config } = bridge;
  if (Boolean(config.tlsCert) !== Boolean(config.tlsKey))
    throw new StartupError('--tls-cert and --tls-key go together: give both (e.g. from mkcert) or neither');
  const tls = Boolean(config.tlsCert && config.tlsKey);
  let server: Server;
  try {
    server = tls
      ? createTlsServer(
          { cert: readPem(config.tlsCert ?? '', '--tls-cert'), key: readPem(config.tlsKey ?? '', '--tls-key') },
          handler,
        )
      : createServer(handler);
  } catch (error) {
    if (error instanceof StartupError) throw error;
    throw new StartupError(`--tls-cert / --tls-key could not be used: ${(error as Error).message}`);
  }
  server.keepAliveTimeout = 65_000;
  return { server, tls };
}

export async function listenRemote(
  bridge: BridgeContext,
  { server, tls }: { server: Server; tls: boolean },
): Promise<RemoteListener> {
  const { config, log } = bridge;
  const address = config.remote;
  if (!address) throw new Error('listenRemote without --remote');
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new StartupError(
          error.code === 'EADDRINUSE'
            ? `--remote ${address.host}:${address.port} is in use; pick another port`
            : `cannot listen on --remote ${address.host}:${address.port}: ${error.message}`,
        ),
      ),
    );
    server.listen(address.port, address.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const everywhere = address.host === '0.0.0.0' || address.host === '::';
  const shown = everywhere ? (lanAddress() ?? '127.0.0.1') : address.host;
  const own = `${tls ? 'https' : 'http'}://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
  if (!tls && !isLoopbackHostname(address.host))
    log.warn(
      `the remote listener on ${address.host}:${port} speaks plain HTTP: anyone on the network can read the device and agent tokens it is sent. Give it --tls-cert and --tls-key (mkcert), or keep it on 127.0.0.1 and reach it through SSH (ssh -L / ssh -R) or Tailscale Serve`,
    );
  return { server, port, url: config.remoteUrl ?? own, tls };
}
