import type { Json } from '../../../bridge/protocol/index.js';
import { useT } from '../i18n/index.js';
import { findRisks } from './risky.js';

/** A value of a command's arguments: text as written (real line breaks), anything else as JSON. */
function Code({ text, risky }: { text: string; risky: ReadonlySet<number> }) {
  return (
    <pre className="command-code">
      <code>
        {text.split('\n').map((line, i) => (
          <span key={i} className={`code-line${risky.has(i + 1) ? ' risky' : ''}`} data-line={i + 1}>
            {line}
          </span>
        ))}
      </code>
    </pre>
  );
}

/**
 * What a page command would do, to be read before it is allowed: each argument by name, scripts as code with
 * their own line breaks, and the calls that reach beyond the page (requests that change data, cookies,
 * storage, navigation …) listed above the code and marked on their lines.
 */
export function CommandView({ cmd, args }: { cmd: string; args: Json }) {
  const words = useT().command;
  const fields: Array<[string, Json]> =
    args && typeof args === 'object' && !Array.isArray(args) ? Object.entries(args) : [['args', args]];
  const risks = fields.flatMap(([name, value]) =>
    typeof value === 'string' ? findRisks(value).map((r) => ({ ...r, name })) : [],
  );
  return (
    <div className="command">
      <p className="command-name">{cmd}</p>
      {risks.length > 0 && (
        <ul className="command-risks" aria-label={words.risks}>
          {risks.map((r, i) => (
            <li key={i}>
              <span aria-hidden>⚠</span> {words.risk(r.name, r.line, words.what[r.what])}
            </li>
          ))}
        </ul>
      )}
      <dl className="command-args">
        {fields.map(([name, value]) => (
          <div key={name} className="command-arg">
            <dt>{name}</dt>
            <dd>
              {typeof value === 'string' ? (
                <Code text={value} risky={new Set(risks.filter((r) => r.name === name).map((r) => r.line))} />
              ) : (
                <code>{JSON.stringify(value)}</code>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
