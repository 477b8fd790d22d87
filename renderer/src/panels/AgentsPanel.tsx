import { AgentName } from '../AgentName.js';
import type { AgentView, InboxCounts } from '../../../bridge/protocol/index.js';
import { useNow } from '../useNow.js';
import { ago } from '../time.js';
import { useT } from '../i18n/index.js';

interface AgentsPanelProps {
  agents: AgentView[];
  /** unread counts from the journal: agents not back since a restart still show what waits for them */
  inbox?: Record<string, InboxCounts>;
  /** false while the window is reconnecting: nobody's state is known then */
  live?: boolean;
  onSelect(agentId: string): void;
}

/** Agents: who is online, through which client, and how much waits unread. Clicking one selects it. */
export function AgentsPanel({ agents, inbox = {}, live = true, onSelect }: AgentsPanelProps) {
  const words = useT().agents;
  useNow(15_000); // keeps "seen … ago" current
  const known = new Set(agents.map((a) => a.agentId));
  const waiting = Object.entries(inbox).filter(([id, counts]) => !known.has(id) && counts.pending > 0);
  const empty = agents.length === 0 && waiting.length === 0;
  return (
    <section className="panel side" aria-label={words.label}>
      <h2 className="panel-title">
        {words.title}{' '}
        <span className="muted">{live ? words.online(agents.filter((a) => a.online).length) : words.unknown}</span>
      </h2>
      {empty ? (
        <p className="empty">
          {words.empty.before}
          <code>aiti_hello</code>
          {words.empty.after}
        </p>
      ) : (
        <ul className="rows">
          {agents.map((a) => {
            const unread = inbox[a.agentId]?.pending ?? a.unread;
            const state = !live ? 'unknown' : a.online ? 'online' : 'offline';
            return (
              <li key={a.agentId}>
                <button type="button" className="row" onClick={() => onSelect(a.agentId)}>
                  <span
                    className={`dot ${state === 'online' ? 'on' : state === 'offline' ? 'off' : 'unknown'}`}
                    title={words.state[state]}
                  />
                  <span className="row-main">
                    <span className="row-title">
                      <AgentName agentId={a.agentId} />
                    </span>
                    <span className="row-sub">
                      {a.client ?? a.transport} ·{' '}
                      {state === 'unknown'
                        ? words.reconnecting
                        : a.online
                          ? a.channels.map((c) => words.channels[c] ?? c).join(', ')
                          : words.seen(ago(a.lastSeen))}
                    </span>
                  </span>
                  {unread > 0 && (
                    <span className="badge" title={words.unread(unread)}>
                      {unread}
                    </span>
                  )}
                </button>
              </li>
            );
          })}
          {waiting.map(([id, counts]) => (
            <li key={id}>
              <button type="button" className="row" onClick={() => onSelect(id)}>
                <span className="dot off" title={words.notConnected} />
                <span className="row-main">
                  <span className="row-title">
                    <AgentName agentId={id} />
                  </span>
                  <span className="row-sub">{words.waiting}</span>
                </span>
                <span className="badge" title={words.unread(counts.pending)}>
                  {counts.pending}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
