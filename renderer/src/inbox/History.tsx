import { useEffect, useMemo, useState, type Dispatch } from 'react';
import type { AgentView, AskRecord, InboxCounts, Message } from '../../../bridge/protocol/index.js';
import type { Api } from '../api.js';
import type { Action } from '../store.js';
import { useT } from '../i18n/index.js';
import { ExportMenu } from './ExportMenu.js';
import { historyRows } from './group.js';
import { MessageRow, PushRow } from './MessageRow.js';
import { summarize } from './summary.js';

/** Rows rendered per step: the window slides back through what is loaded, then pages in from the journal. */
const WINDOW_STEP = 100;
export const ALL = '*';

interface Cursor {
  before?: string;
  done: boolean;
  loading: boolean;
  error?: string;
  fetched: boolean;
}

interface HistoryProps {
  api: Api | undefined;
  dispatch: Dispatch<Action>;
  messages: Message[];
  agents: AgentView[];
  inbox: Record<string, InboxCounts>;
  view: string;
  onView(view: string): void;
  /** how each ask ended, by askId (an async answer's row reads its ask's kind and the bridge's words there) */
  records?: ReadonlyMap<string, AskRecord>;
}

/** Inbox history per agent or for all: newest first, paging back, searchable in what is loaded. */
export function History({ api, dispatch, messages, agents, inbox, view, onView, records }: HistoryProps) {
  const words = useT().history;
  const [query, setQuery] = useState('');
  const [shown, setShown] = useState<Record<string, number>>({});
  const [cursors, setCursors] = useState<Record<string, Cursor>>({});
  const cursor = cursors[view] ?? { done: false, loading: false, fetched: false };
  const limit = shown[view] ?? WINDOW_STEP;

  // a tab for each agent the bridge knows now, or that has unread messages; agents gone past the TTL fold
  // into "Earlier agents" so old names do not crowd the row
  const { agentIds, earlier } = useMemo(() => {
    const tabs = new Set(agents.map((a) => a.agentId));
    for (const [id, counts] of Object.entries(inbox)) if (counts.pending > 0) tabs.add(id);
    const rest = new Set<string>();
    for (const m of messages) if (!tabs.has(m.agentId)) rest.add(m.agentId);
    return { agentIds: [...tabs].sort(), earlier: [...rest].sort() };
  }, [agents, messages, inbox]);

  const inView = useMemo(
    () => (view === ALL ? messages : messages.filter((m) => m.agentId === view)),
    [messages, view],
  );
  const needle = query.trim().toLowerCase();
  const matching = useMemo(
    () =>
      needle
        ? inView.filter((m) =>
            [summarize(m, records), m.agentId, m.kind, m.status].some((s) => s.toLowerCase().includes(needle)),
          )
        : inView,
    [inView, needle],
  );
  const visible = matching.slice(0, limit);

  const fetchPage = async (target: string, before: string | undefined) => {
    if (!api) return;
    setCursors((c) => ({ ...c, [target]: { ...(c[target] ?? { done: false, fetched: false }), loading: true } }));
    try {
      const answer = await api.messages({
        ...(target === ALL ? {} : { agentId: target }),
        ...(before ? { before } : {}),
        limit: WINDOW_STEP,
      });
      dispatch({ type: 'messages', messages: answer.messages });
      setCursors((c) => ({
        ...c,
        [target]: { before: answer.nextBefore, done: !answer.nextBefore, loading: false, fetched: true },
      }));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      setCursors((c) => ({ ...c, [target]: { done: false, fetched: false, loading: false, error: message } }));
    }
  };

  // a view seen for the first time loads its newest page
  useEffect(() => {
    if (api && !cursor.fetched && !cursor.loading && !cursor.error) void fetchPage(view, undefined);
  }, [api, view, cursor.fetched]);

  const older = () => {
    setShown((s) => ({ ...s, [view]: limit + WINDOW_STEP }));
    if (matching.length <= limit && !cursor.done && !cursor.loading)
      void fetchPage(view, cursor.before ?? inView[inView.length - 1]?.id);
  };

  // the inbox counts come from the journal, so they survive a restart before the agent is back
  const unread = (id: string) => inbox[id]?.pending ?? agents.find((a) => a.agentId === id)?.unread ?? 0;
  const counts = view === ALL ? undefined : inbox[view];

  return (
    <section className="panel history" aria-labelledby="history-title">
      <h2 className="visually-hidden" id="history-title">
        {words.label}
      </h2>
      <header className="panel-head history-head">
        <nav className="tabs" aria-label={words.agents}>
          {[ALL, ...agentIds, ...(earlier.includes(view) ? [view] : [])].map((id) => (
            <button
              key={id}
              type="button"
              className="tab"
              aria-current={view === id ? 'page' : undefined}
              onClick={() => onView(id)}
            >
              {id === ALL ? words.all : id}
              {id !== ALL && unread(id) > 0 && (
                <span className="badge" aria-label={words.unread(unread(id))}>
                  {unread(id)}
                </span>
              )}
            </button>
          ))}
          {earlier.length > 0 && (
            <select
              className="field earlier"
              aria-label={words.earlierField}
              value=""
              onChange={(e) => e.target.value && onView(e.target.value)}
            >
              <option value="">{words.earlier(earlier.length)}</option>
              {earlier.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
          )}
        </nav>
        <input
          className="field search"
          type="search"
          aria-label={words.search}
          placeholder={words.searchPlaceholder}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <ExportMenu
          messages={inView}
          scope={view === ALL ? words.exportAll : view}
          agentId={view === ALL ? undefined : view}
        />
      </header>
      {counts && (
        <p className="history-counts">
          {(['pending', 'delivered', 'consumed'] as const).map((status) => (
            <span key={status} className={`status-chip status-${status}`}>
              {words.counts(counts[status], words.status[status])}
            </span>
          ))}
        </p>
      )}
      {visible.length === 0 ? (
        <p className="empty">{cursor.loading ? words.loading : needle ? words.noMatch(query.trim()) : words.empty}</p>
      ) : (
        <ol className="messages">
          {historyRows(visible).map((row) =>
            row.type === 'push' && view === ALL ? (
              <PushRow key={row.messages[0]?.id} messages={row.messages} {...(api ? { api } : {})} />
            ) : (
              (row.type === 'push' ? row.messages : [row.message]).map((m) => (
                <MessageRow
                  key={m.id}
                  message={m}
                  showAgent={view === ALL}
                  records={records}
                  {...(api ? { api } : {})}
                />
              ))
            ),
          )}
        </ol>
      )}
      <footer className="history-foot">
        {cursor.error ? (
          <span className="card-error">{words.unavailable(cursor.error)}</span>
        ) : matching.length > limit || !cursor.done ? (
          <button type="button" className="button ghost small" disabled={cursor.loading} onClick={older}>
            {cursor.loading ? words.loadingMore : words.older}
          </button>
        ) : (
          inView.length > 0 && <span className="muted">{words.beginning}</span>
        )}
        {needle && <span className="muted">{words.found(matching.length, inView.length)}</span>}
      </footer>
    </section>
  );
}
