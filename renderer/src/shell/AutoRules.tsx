import { useState } from 'react';
import { kindLabel } from '../cards/options.js';
import { t, useT } from '../i18n/index.js';
import { AUTO_KINDS, type AutoKind, type AutoRule } from './settings.js';

const ANY = '*';

/** The replies a rule of each kind may give, when they are fixed (a confirm's yes/no, presence's here/away). */
export function fixedReplies(kind: AutoKind): Array<{ value: string; label: string }> | undefined {
  const words = t();
  if (kind === 'user_confirm')
    return [
      { value: 'yes', label: words.cards.yes },
      { value: 'no', label: words.cards.no },
    ];
  if (kind === 'user_presence')
    return [
      { value: 'present', label: words.cards.present },
      { value: 'away', label: words.cards.awayOption },
    ];
  return undefined;
}

/** A rule's reply as the human reads it (Yes, I'm here …, or the text itself). */
export function replyLabel(kind: AutoKind, reply: string): string {
  return fixedReplies(kind)?.find((r) => r.value === reply)?.label ?? reply;
}

/** Settings' list of auto-answer rules (opt-in: none until the human adds one), and the form that adds one. */
export function AutoRules(props: { rules: AutoRule[]; agents: readonly string[]; onRules(rules: AutoRule[]): void }) {
  const { rules, agents, onRules } = props;
  const words = useT().settings.auto;
  const [agent, setAgent] = useState(ANY);
  const [kind, setKind] = useState<AutoKind>('user_confirm');
  const [afterS, setAfterS] = useState(60);
  const [text, setText] = useState('');
  const fixed = fixedReplies(kind);
  const reply = fixed ? (fixed.some((r) => r.value === text) ? text : (fixed[0]?.value ?? '')) : text;
  return (
    <section className="auto-rules" aria-labelledby="auto-title">
      <h3 className="setting-title" id="auto-title">
        {words.title}
      </h3>
      <p className="muted">{words.help}</p>
      {rules.length === 0 ? (
        <p className="muted">{words.none}</p>
      ) : (
        <ul className="quick-list">
          {rules.map((rule) => {
            const said = words.rule(
              rule.agent === ANY ? words.anyAgent : rule.agent,
              kindLabel(rule.kind),
              rule.afterS,
              replyLabel(rule.kind, rule.reply),
            );
            return (
              <li key={rule.id}>
                <span className="quick-text">{said}</span>
                <button
                  type="button"
                  className="button ghost small"
                  aria-label={`${words.remove}: ${said}`}
                  onClick={() => onRules(rules.filter((r) => r.id !== rule.id))}
                >
                  {words.remove}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <form
        className="auto-add"
        onSubmit={(e) => {
          e.preventDefault();
          if (!reply.trim() || afterS <= 0) return;
          const id = `auto-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
          onRules([...rules, { id, agent, kind, afterS, reply: reply.trim() }]);
          setText('');
        }}
      >
        <label>
          <span>{words.agent}</span>
          <select className="field" value={agent} onChange={(e) => setAgent(e.target.value)}>
            <option value={ANY}>{words.anyAgent}</option>
            {agents.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{words.kind}</span>
          <select className="field" value={kind} onChange={(e) => setKind(e.target.value as AutoKind)}>
            {AUTO_KINDS.map((k) => (
              <option key={k} value={k}>
                {kindLabel(k)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{words.after}</span>
          <input
            className="field"
            type="number"
            min={1}
            max={3600}
            value={afterS}
            onChange={(e) => setAfterS(Math.max(1, Math.round(Number(e.target.value) || 1)))}
          />
        </label>
        <label>
          <span>{words.reply}</span>
          {fixed ? (
            <select className="field" value={reply} onChange={(e) => setText(e.target.value)}>
              {fixed.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          ) : (
            <input
              className="field"
              value={text}
              placeholder={words.replyPlaceholder}
              onChange={(e) => setText(e.target.value)}
            />
          )}
        </label>
        <button type="submit" className="button small" disabled={!reply.trim()}>
          {words.add}
        </button>
      </form>
    </section>
  );
}
