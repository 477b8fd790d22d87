import { useEffect, useState } from 'react';
import type { AgentTokenCreated, PairingCodeAnswer } from '../../../bridge/protocol/index.js';
import { ago } from '../time.js';
import { useNow } from '../useNow.js';
import type { DeskApi } from './desk-api.js';
import { publishDevices, useDevicesFeed } from './desk-feed.js';

/**
 * The desk's Devices panel: "Pair a device" (a QR code of the one-time link), the paired devices with their last
 * use (revoke closes their streams at once), and the agent tokens of agents on other machines.
 */
export function DevicesPanel({ desk }: { desk: DeskApi | undefined }) {
  useNow(15_000);
  const feed = useDevicesFeed();
  const [pairing, setPairing] = useState<PairingCodeAnswer>();
  const [created, setCreated] = useState<AgentTokenCreated>();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string>();
  // the connected counts and last uses move without an event: refresh them while the panel is shown
  useEffect(() => {
    if (!desk) return;
    const refresh = () => desk.devices().then(publishDevices, () => undefined);
    const timer = setInterval(refresh, 15_000);
    return () => clearInterval(timer);
  }, [desk]);
  // the code is good for 2 minutes: the picture goes when it does
  useEffect(() => {
    if (!pairing) return;
    const timer = setTimeout(() => setPairing(undefined), Math.max(0, Date.parse(pairing.expiresAt) - Date.now()));
    return () => clearTimeout(timer);
  }, [pairing]);
  if (!desk || !feed) return null;
  const failed = (error: unknown) => setProblem(error instanceof Error ? error.message : String(error));
  const run = (what: Promise<unknown>) => what.then(() => setProblem(undefined), failed);
  return (
    <section className="panel side devices-panel" aria-label="devices">
      <h2 className="panel-title">
        Devices <span className="muted">{feed.devices.length} paired</span>
      </h2>
      {feed.remote ? (
        <button
          type="button"
          className="button"
          onClick={() => void run(desk.openPairing().then(setPairing))}
          aria-expanded={pairing !== undefined}
        >
          Pair a device
        </button>
      ) : (
        <p className="empty">
          Start the bridge with <code>--remote 8778</code> to answer from a phone or pair another machine.
        </p>
      )}
      {pairing && (
        <figure className="pairing-qr">
          <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(pairing.qrSvg)}`} alt="pairing QR code" />
          <figcaption>
            Scan with the phone&apos;s camera (good for 2 minutes, once), or open{' '}
            <a href={pairing.url} target="_blank" rel="noreferrer noopener">
              this link
            </a>{' '}
            on the device.
          </figcaption>
          <button type="button" className="button ghost small" onClick={() => setPairing(undefined)}>
            Hide
          </button>
        </figure>
      )}
      {feed.devices.length > 0 && (
        <ul className="rows">
          {feed.devices.map((d) => (
            <li key={d.deviceId} className="row device-row">
              <span
                className={`dot ${d.connected ? 'on' : 'off'}`}
                title={d.connected ? 'connected' : 'not connected'}
              />
              <span className="row-main">
                <span className="row-title">{d.name}</span>
                <span className="row-sub">
                  {d.lastUsedAt ? `last used ${ago(d.lastUsedAt)}` : 'not used yet'} · paired {ago(d.pairedAt)}
                </span>
              </span>
              <button
                type="button"
                className="button small"
                aria-label={`revoke ${d.name}`}
                onClick={() => void run(desk.revokeDevice(d.deviceId))}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      <h3 className="section-title">Agents on other machines</h3>
      {feed.agentTokens.length > 0 && (
        <ul className="rows">
          {feed.agentTokens.map((t) => (
            <li key={t.id} className="row">
              <span className="row-main">
                <span className="row-title">{t.name}</span>
                <span className="row-sub">
                  {t.expired ? 'expired' : t.expiresAt ? `expires ${t.expiresAt.slice(0, 10)}` : 'never expires'} ·{' '}
                  {t.lastUsedAt ? `used ${ago(t.lastUsedAt)}` : 'not used yet'}
                </span>
              </span>
              <button
                type="button"
                className="button small"
                aria-label={`revoke the token of ${t.name}`}
                onClick={() => void run(desk.revokeAgentToken(t.name))}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="token-form"
        onSubmit={(event) => {
          event.preventDefault();
          void run(
            desk.createAgentToken(name.trim(), '30d').then((answer) => {
              setCreated(answer);
              setName('');
            }),
          );
        }}
      >
        <input
          className="field"
          aria-label="agent id for a new token"
          placeholder="agent id, e.g. devbox-claude"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="button small" disabled={!name.trim()}>
          Make token
        </button>
      </form>
      {created && (
        <div className="token-made" role="status">
          <p>
            Token for <strong>{created.row.name}</strong>, shown once (expires in 30 days). Paste one of these on that
            machine:
          </p>
          {created.setup.map((s) => (
            <details key={s.client}>
              <summary>{s.client}</summary>
              <pre>{s.text}</pre>
            </details>
          ))}
          <button type="button" className="button ghost small" onClick={() => setCreated(undefined)}>
            Done
          </button>
        </div>
      )}
      {problem && <p className="card-error">{problem}</p>}
    </section>
  );
}
