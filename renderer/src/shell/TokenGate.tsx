import { forgetToken } from '../host.js';
import { useT } from '../i18n/index.js';

/**
 * What the window shows instead of itself when it has no token, or when what answers on the port could not
 * prove it holds the token (the window sent it nothing and stopped).
 */
export function TokenGate({ impostor, problem }: { impostor: boolean; problem?: string | undefined }) {
  const words = useT();
  const gate = words.gate;
  return (
    <main className="gate">
      <h1>{words.app.name}</h1>
      {impostor ? (
        <>
          <p role="alert">
            {gate.impostor.before}
            <code>{window.location.host}</code>
            {gate.impostor.middle}
            <code>{'<data-dir>/aiti-bridge/token'}</code>
            {gate.impostor.after}
          </p>
          {problem && <p className="problem">{problem}</p>}
        </>
      ) : (
        <p>
          {gate.noToken.before}
          <code>…/aiti/ui/#token=…</code>
          {gate.noToken.after}
        </p>
      )}
      {impostor && (
        <button type="button" className="button" onClick={() => (forgetToken(), window.location.reload())}>
          {gate.forget}
        </button>
      )}
    </main>
  );
}
