import { sayFailure } from '../refusal.js';
import { useEffect, useState } from 'react';
import type { AgentTokenCreated, PairingCodeAnswer } from '../../../bridge/protocol/index.js';
import { ago } from '../time.js';
import { useNow } from '../useNow.js';
import type { DeskApi } from './desk-api.js';
import { publishDevices, useDevicesFeed } from './desk-feed.js';
import { useT } from '../i18n/index.js';
import { formatRemaining } from '../cards/Countdown.js';

/**
 * The desk's Devices panel: "Pair a device" (a QR code of the one-time link), the paired devices with their last
 * use (revoke closes their streams at once), and the agent tokens of agents on other machines.
 */
export function DevicesPanel({ desk, live = true }: { desk: DeskApi | undefined; live?: boolean }) {
  useNow(15_000);
  const feed = useDevicesFeed();
  const words = useT().devices;
  const [pairing, setPairing] = useState<PairingCodeAnswer>();
  // the code's time left shows to the second while its picture is up; at 0 the picture says it expired
  useNow(1000, pairing !== undefined);
  const left = pairing ? Math.max(0, Date.parse(pairing.expiresAt) - Date.now()) : 0;
  const expired = pairing !== undefined && left === 0;
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
  if (!desk || !feed) return null;
  const failed = (error: unknown) => setProblem(sayFailure(error));
  const run = (what: Promise<unknown>) => what.then(() => setProblem(undefined), failed);
  return (
    <section className="panel side devices-panel" aria-label={words.panel}>
      <h2 className="panel-title">
        {words.title} <span className="muted">{words.paired(feed.devices.length)}</span>
      </h2>
      {feed.remote ? (
        <button
          type="button"
          className="button"
          onClick={() => void run(desk.openPairing().then(setPairing))}
          aria-expanded={pairing !== undefined}
        >
          {words.pair}
        </button>
      ) : (
        <p className="empty">
          {words.needsRemote.before}
          <code>--remote 8778</code>
          {words.needsRemote.after}
        </p>
      )}
      {pairing && expired && (
        <div className="pairing-qr expired" role="status">
          <p>{words.codeExpired}</p>
          <button
            type="button"
            className="button primary small"
            onClick={() => void run(desk.openPairing().then(setPairing))}
          >
            {words.newCode}
          </button>
          <button type="button" className="button ghost small" onClick={() => setPairing(undefined)}>
            {words.hide}
          </button>
        </div>
      )}
      {pairing && !expired && (
        <figure className="pairing-qr">
          <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(pairing.qrSvg)}`} alt={words.qrAlt} />
          <figcaption>
            {words.qrCaption.before}
            <a href={pairing.url} target="_blank" rel="noreferrer noopener">
              {words.qrCaption.link}
            </a>
            {words.qrCaption.after} <span className="qr-left">{words.expiresIn(formatRemaining(left))}</span>
          </figcaption>
          <button type="button" className="button ghost small" onClick={() => setPairing(undefined)}>
            {words.hide}
          </button>
        </figure>
      )}
      {feed.devices.length > 0 && (
        <ul className="rows">
          {feed.devices.map((d) => (
            <li key={d.deviceId} className="row device-row">
              <span
                className={`dot ${!live ? 'unknown' : d.connected ? 'on' : 'off'}`}
                title={!live ? words.unknown : d.connected ? words.connected : words.notConnected}
              />
              <span className="row-main">
                <span className="row-title">{d.name}</span>
                <span className="row-sub">
                  {d.lastUsedAt ? words.lastUsed(ago(d.lastUsedAt)) : words.notUsed} ·{' '}
                  {words.pairedAgo(ago(d.pairedAt))}
                </span>
              </span>
              <button
                type="button"
                className="button small"
                aria-label={words.revokeDevice(d.name)}
                onClick={() => void run(desk.revokeDevice(d.deviceId))}
              >
                {words.revoke}
              </button>
            </li>
          ))}
        </ul>
      )}
      <h3 className="section-title">{words.agentsElsewhere}</h3>
      {feed.agentTokens.length > 0 && (
        <ul className="rows">
          {feed.agentTokens.map((t) => (
            <li key={t.id} className="row">
              <span className="row-main">
                <span className="row-title">{t.name}</span>
                <span className="row-sub">
                  {t.expired
                    ? words.expired
                    : t.expiresAt
                      ? words.expires(t.expiresAt.slice(0, 10))
                      : words.neverExpires}{' '}
                  · {t.lastUsedAt ? words.usedAgo(ago(t.lastUsedAt)) : words.notUsed}
                </span>
              </span>
              <button
                type="button"
                className="button small"
                aria-label={words.revokeToken(t.name)}
                onClick={() => void run(desk.revokeAgentToken(t.name))}
              >
                {words.revoke}
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
          aria-label={words.tokenName}
          placeholder={words.tokenPlaceholder}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="button small" disabled={!name.trim()}>
          {words.makeToken}
        </button>
      </form>
      {created && (
        <div className="token-made" role="status">
          <p>
            {words.made.before}
            <strong>{created.row.name}</strong>
            {words.made.after}
          </p>
          {created.setup.map((s) => (
            <details key={s.client}>
              <summary>{s.client}</summary>
              <pre>{s.text}</pre>
            </details>
          ))}
          <button type="button" className="button ghost small" onClick={() => setCreated(undefined)}>
            {words.done}
          </button>
        </div>
      )}
      {problem && <p className="card-error">{problem}</p>}
    </section>
  );
}
