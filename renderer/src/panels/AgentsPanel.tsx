import { AgentName } from '../AgentName.js';
import type { AgentView, InboxCounts } from '../../../bridge/protocol/index.js';
import { useNow } from '../useNow.js';
import { ago } from '../time.js';

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
  useNow(15_000); // keeps "seen … ago" current
  const known = new Set(agents.map((a) => a.agentId));
  const waiting = Object.entries(inbox).filter(([id, counts]) => !known.has(id) && counts.pending > 0);
  const empty = agents.length === 0 && waiting.length === 0;
  return (
    <section className="panel side" aria-label="agents">
      <h2 className="panel-title">
        Agents{' '}
        <span className="muted">{live ? `${agents.filter((a) => a.online).length} online` : 'status unknown'}</span>
      </h2>
      {empty ? (
        <p className="empty">
          No agent yet. An MCP client that calls <code>aiti_hello</code> appears here.
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
                    title={state}
                  />
                  <span className="row-main">
                    <span className="row-title">
                      <AgentName agentId={a.agentId} />
                    </span>
                    <span className="row-sub">
                      {a.client ?? a.transport} ·{' '}
                      {state === 'unknown'
                        ? 'reconnecting: state unknown'
                        : a.online
                          ? a.channels.join(', ')
                          : `seen ${ago(a.lastSeen)}`}
                    </span>
                  </span>
                  {unread > 0 && (
                    <span className="badge" title={`${unread} unread`}>
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
                <span className="dot off" title="not connected" />
                <span className="row-main">
                  <span className="row-title">
                    <AgentName agentId={id} />
                  </span>
                  <span className="row-sub">not connected since the bridge started · messages wait</span>
                </span>
                <span className="badge" title={`${counts.pending} unread`}>
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
