import { forgetToken } from '../host.js';

/**
 * What the window shows instead of itself when it has no token, or when what answers on the port could not
 * prove it holds the token (the window sent it nothing and stopped).
 */
export function TokenGate({ impostor, problem }: { impostor: boolean; problem?: string | undefined }) {
  return (
    <main className="gate">
      <h1>AITI Bridge</h1>
      {impostor ? (
        <>
          <p role="alert">
            Something else answers on <code>{window.location.host}</code>: it could not prove that it holds this
            window&apos;s token, so the window sent it nothing and stopped. Another program may have taken the port
            after the bridge stopped, or this link&apos;s token is older than the bridge&apos;s. Start the bridge again
            and open the link it prints; the token is also stored in <code>&lt;data-dir&gt;/aiti-bridge/token</code>.
          </p>
          {problem && <p className="problem">{problem}</p>}
        </>
      ) : (
        <p>
          This window needs the bridge&apos;s token. Open it with the link the bridge printed at start,{' '}
          <code>…/aiti/ui/#token=…</code>, or from the desktop app.
        </p>
      )}
      {impostor && (
        <button type="button" className="button" onClick={() => (forgetToken(), window.location.reload())}>
          Forget this token
        </button>
      )}
    </main>
  );
}
