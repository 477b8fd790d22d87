import { useEffect, useRef, useState } from 'react';
import {
  ErrorBody,
  PairStartAnswer,
  PairStatusAnswer,
  type PairStartAnswer as Started,
} from '../../../bridge/protocol/index.js';
import { apiBase } from '../host.js';
import { importProofKey, makeDeviceKey, proveCode } from './device-auth.js';
import { saveDeviceKeys } from './device-store.js';
import { t, useT } from '../i18n/index.js';
import { useNow } from '../useNow.js';
import { formatRemaining } from '../cards/Countdown.js';

type Step =
  | { step: 'name' }
  | { step: 'sending' }
  | { step: 'waiting'; started: Started; signKey: CryptoKey }
  | { step: 'refused' | 'expired' | 'no-crypto' | 'no-code' | 'code-invalid' | 'bad-name' }
  | { step: 'too-many'; seconds: number }
  | { step: 'failed'; why: string };

/** A name to offer: what kind of device this is, as its browser says. */
function guessName(): string {
  const ua = navigator.userAgent;
  if (/iPhone/.test(ua)) return 'iPhone';
  if (/iPad/.test(ua)) return 'iPad';
  if (/Android/.test(ua)) return /Mobile/.test(ua) ? t().pairPage.androidPhone : t().pairPage.androidTablet;
  return t().pairPage.thisBrowser;
}

/** The one-time code from `#code=`, taken out of the address bar at once (it is not to be kept or shared). */
function takeCode(): string | undefined {
  const code = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('code') ?? undefined;
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  return code;
}

async function post(
  path: string,
  body: unknown,
): Promise<{ ok: boolean; status: number; json: unknown; retryAfter?: number }> {
  const res = await fetch(new URL(path, apiBase()), {
    method: 'POST',
    credentials: 'omit',
    cache: 'no-store',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    json = undefined;
  }
  const retry = Number(res.headers.get('retry-after'));
  return { ok: res.ok, status: res.status, json, ...(retry > 0 ? { retryAfter: Math.ceil(retry) } : {}) };
}

/**
 * `/aiti/ui/pair#code=…`, opened from the desk's QR code: name this device; the bridge proves it holds the code
 * before the code is sent (a program on the port gets nothing); this browser makes the device's key pair and sends
 * the public half; then wait for the desk's yes while showing the check phrase the desk's card shows. Approved, the
 * keys are kept in this origin's storage, non-extractable (device-store.ts), and the window opens.
 */
export function PairPage() {
  const all = useT();
  const words = all.pairPage;
  const code = useRef(takeCode());
  const [name, setName] = useState(guessName);
  const [step, setStep] = useState<Step>(code.current ? { step: 'name' } : { step: 'no-code' });

  useEffect(() => {
    if (step.step !== 'waiting') return;
    let stopped = false;
    const secret = step.started.secret;
    const poll = async () => {
      while (!stopped) {
        const answer = await post('bridge/pair/status', { secret }).catch(() => undefined);
        const parsed = PairStatusAnswer.safeParse(answer?.json);
        if (stopped) return;
        if (parsed.success && parsed.data.state === 'approved') {
          const { deviceId, proofKey } = parsed.data;
          if (!deviceId || !proofKey) return setStep({ step: 'failed', why: words.answered(answer?.status ?? 0) });
          try {
            await saveDeviceKeys({ deviceId, signKey: step.signKey, proofKey: await importProofKey(proofKey) });
          } catch (error) {
            return setStep({ step: 'failed', why: error instanceof Error ? error.message : String(error) });
          }
          window.location.replace(new URL('./', window.location.href).href);
          return;
        }
        if (parsed.success && (parsed.data.state === 'refused' || parsed.data.state === 'expired'))
          return setStep({ step: parsed.data.state });
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    };
    void poll();
    return () => {
      stopped = true;
    };
  }, [step, words]);

  const start = async () => {
    // WebCrypto lives only in secure contexts (HTTPS, or a loopback address): without it no key can be kept
    if (!globalThis.crypto?.subtle || typeof indexedDB === 'undefined') return setStep({ step: 'no-crypto' });
    setStep({ step: 'sending' });
    try {
      const proof = await proveCode(apiBase(), code.current ?? '');
      if (proof.kind !== 'proven') return setStep({ step: 'failed', why: words.notSent(proof.why) });
      const { signKey, publicKey } = await makeDeviceKey();
      const answer = await post('bridge/pair/start', { code: code.current, name: name.trim(), publicKey });
      const started = PairStartAnswer.safeParse(answer.json);
      if (answer.ok && started.success) return setStep({ step: 'waiting', started: started.data, signKey });
      // the bridge's refusal in the human's language: its English is for logs
      const error = ErrorBody.safeParse(answer.json);
      if (answer.status === 403 || answer.status === 404 || answer.status === 409)
        return setStep({ step: 'code-invalid' });
      if (answer.status === 400 && error.success && error.data.field === 'name') return setStep({ step: 'bad-name' });
      if (answer.status === 429) return setStep({ step: 'too-many', seconds: answer.retryAfter ?? 10 });
      setStep({ step: 'failed', why: words.answered(answer.status) });
    } catch (error) {
      setStep({ step: 'failed', why: error instanceof Error ? error.message : String(error) });
    }
  };

  return (
    <main className="gate pair-page">
      <h1>{words.title}</h1>
      {step.step === 'no-code' && (
        <p role="alert">
          {words.noCode.before}
          <strong>{all.devices.pair}</strong>
          {words.noCode.after}
        </p>
      )}
      {(step.step === 'name' || step.step === 'sending' || step.step === 'bad-name') && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void start();
          }}
        >
          <label className="pair-label" htmlFor="device-name">
            {words.nameLabel}
          </label>
          <input
            id="device-name"
            className="field"
            value={name}
            maxLength={60}
            autoComplete="off"
            onChange={(e) => setName(e.target.value)}
          />
          <button type="submit" className="button primary" disabled={!name.trim() || step.step === 'sending'}>
            {words.pair}
          </button>
        </form>
      )}
      {step.step === 'waiting' && (
        <>
          <p>{words.approveThere}</p>
          <p className="check-phrase" aria-label={all.devices.phrase}>
            {step.started.phrase}
          </p>
          <p className="muted" role="status">
            {words.waiting}
          </p>
          <TimeLeft until={step.started.expiresAt} />
        </>
      )}
      {step.step === 'code-invalid' && (
        <p role="alert">
          {words.codeInvalid}
          <strong>{all.devices.pair}</strong>
          {words.codeInvalidAfter}
        </p>
      )}
      {step.step === 'bad-name' && <p role="alert">{words.badName}</p>}
      {step.step === 'too-many' && <p role="alert">{words.tooMany(step.seconds)}</p>}
      {step.step === 'refused' && <p role="alert">{words.refused}</p>}
      {step.step === 'expired' && (
        <p role="alert">
          {words.expired.before}
          <strong>{all.devices.pair}</strong>
          {words.expired.after}
        </p>
      )}
      {step.step === 'no-crypto' && <p role="alert">{words.noCrypto}</p>}
      {step.step === 'failed' && <p role="alert">{step.why}</p>}
    </main>
  );
}

/** How long the desk has left to approve, to the second (the request lapses at `until`). */
function TimeLeft({ until }: { until: string }) {
  const words = useT().pairPage;
  useNow(1000);
  return (
    <p className="muted pair-left">{words.timeLeft(formatRemaining(Math.max(0, Date.parse(until) - Date.now())))}</p>
  );
}
