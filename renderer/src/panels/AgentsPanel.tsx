import type { AgentView } from '../../../bridge/protocol/index.js';
import { useNow } from '../useNow.js';
import { ago } from '../time.js';

/** Agents: who is online, through which client, and how much waits unread. Clicking one selects it. */
export function AgentsPanel({ agents, onSelect }: { agents: AgentView[]; onSelect(agentId: string): void }) {
  useNow(15_000); // keeps "seen … ago" current
  return (
    <section className="panel side" aria-label="agents">
      <h2 className="panel-title">
        Agents <span className="muted">{agents.filter((a) => a.online).length} online</span>
      </h2>
      {agents.length === 0 ? (
        <p className="empty">
          No agent yet. An MCP client that calls <code>aiti_hello</code> appears here.
        </p>
      ) : (
        <ul className="rows">
          {agents.map((a) => (
            <li key={a.agentId}>
              <button type="button" className="row" onClick={() => onSelect(a.agentId)}>
                <span className={`dot ${a.online ? 'on' : 'off'}`} title={a.online ? 'online' : 'offline'} />
                <span className="row-main">
                  <span className="row-title">{a.agentId}</span>
                  <span className="row-sub">
                    {a.client ?? a.transport} · {a.online ? a.channels.join(', ') : `seen ${ago(a.lastSeen)}`}
                  </span>
                </span>
                {a.unread > 0 && (
                  <span className="badge" title={`${a.unread} unread`}>
                    {a.unread}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
