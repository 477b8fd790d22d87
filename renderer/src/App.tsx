import { useCallback, useEffect, useRef, useState } from 'react';
import type { AnswerBody } from '../../bridge/protocol/index.js';
import { Cards } from './cards/Cards.js';
import { Composer } from './composer/Composer.js';
import { forgetToken, host, onComposeRequest, onOpenAskRequest, type AitiHost } from './host.js';
import { ALL, History } from './inbox/History.js';
import { isTyping } from './keys.js';
import { AgentsPanel } from './panels/AgentsPanel.js';
import { PagesPanel } from './panels/PagesPanel.js';
import { dropDraft } from './drafts.js';
import { openAsks, type Connection } from './store.js';
import { useTheme } from './theme.js';
import { useAnnouncement } from './announce.js';
import { useBridge } from './useBridge.js';

const CONNECTION_LABEL: Record<Connection, string> = {
  connecting: 'Connecting…',
  live: 'Connected',
  reconnecting: 'Reconnecting…',
  impostor: 'Not the bridge',
  no_token: 'No token',
};

export function App() {
  const { state, api, dispatch } = useBridge();
  const [theme, nextTheme] = useTheme();
  const [view, setView] = useState(ALL);
  const [to, setTo] = useState('all');
  const composer = useRef<HTMLTextAreaElement>(null);

  const [shortcut, setShortcut] = useState<Awaited<ReturnType<NonNullable<AitiHost['hostInfo']>>>>();
  const [drawer, setDrawer] = useState(false);
  const drawerClose = useRef<HTMLButtonElement>(null);
  // the drawer takes the keyboard when it opens, so Tab walks its panels and Esc closes it
  useEffect(() => {
    if (drawer) drawerClose.current?.focus();
  }, [drawer]);
  const announcement = useAnnouncement(state.asks);

  const compose = useCallback((recipient = 'all') => {
    setTo(recipient);
    composer.current?.focus();
  }, []);
  useEffect(() => onComposeRequest(compose), [compose]);
  useEffect(
    () =>
      onOpenAskRequest((askId) => {
        const card = document.querySelector<HTMLElement>(`[data-ask-id="${CSS.escape(askId)}"]`);
        card?.scrollIntoView({ block: 'nearest' });
        card?.focus();
      }),
    [],
  );
  useEffect(() => {
    host()
      ?.hostInfo?.()
      .then(setShortcut, () => undefined);
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const modK = (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k';
      if (modK || (event.key === '/' && !isTyping(event.target))) {
        event.preventDefault();
        compose();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [compose]);

  const open = openAsks(state.asks).length;
  useEffect(() => {
    document.title = open ? `(${open}) AITI Bridge` : 'AITI Bridge';
  }, [open]);

  const send = useCallback(
    async (body: AnswerBody) => {
      if (!api) throw new Error('not connected to the bridge yet');
      const ends = body.action === 'answer' || body.action === 'reject';
      // marked before the call: the stream may report the end before the POST answers
      if (ends) dispatch({ type: 'sending', askId: body.askId, sending: true });
      try {
        await api.answer(body);
      } catch (error) {
        if (ends) dispatch({ type: 'sending', askId: body.askId, sending: false });
        throw error;
      }
    },
    [api, dispatch],
  );
  const gone = useCallback(
    (askId: string) => {
      dropDraft(askId);
      dispatch({ type: 'ask_gone', askId });
    },
    [dispatch],
  );

  const selectAgent = (agentId: string) => {
    setView(agentId);
    setTo(agentId);
    setDrawer(false);
  };

  if (state.connection === 'no_token' || state.connection === 'impostor') {
    return (
      <main className="gate">
        <h1>AITI Bridge</h1>
        {state.connection === 'no_token' ? (
          <p>
            This window needs the bridge&apos;s token. Open it with the link the bridge printed at start,{' '}
            <code>…/aiti/ui/#token=…</code>, or from the desktop app.
          </p>
        ) : (
          <>
            <p role="alert">
              Something else answers on <code>{window.location.host}</code>: it could not prove that it holds this
              window&apos;s token, so the window sent it nothing and stopped. Another program may have taken the port
              after the bridge stopped, or this link&apos;s token is older than the bridge&apos;s. Start the bridge
              again and open the link it prints; the token is also stored in{' '}
              <code>&lt;data-dir&gt;/aiti-bridge/token</code>.
            </p>
            {state.problem && <p className="problem">{state.problem}</p>}
          </>
        )}
        {state.connection === 'impostor' && (
          <button type="button" className="button" onClick={() => (forgetToken(), window.location.reload())}>
            Forget this token
          </button>
        )}
      </main>
    );
  }

  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">
          <span className="logo" aria-hidden />
          <span className="brand-name">AITI Bridge</span>
        </span>
        <span className={`connection conn-${state.connection}`} role="status">
          <span className="dot" />
          <span className="conn-label">{CONNECTION_LABEL[state.connection]}</span>
        </span>
        {state.problem && (
          <span className="problem" title={state.problem}>
            {state.problem}
          </span>
        )}
        <span className="spacer" />
        <button
          type="button"
          className={`button ghost small${state.away ? ' pressed' : ''}`}
          aria-pressed={state.away}
          title="Tell agents you are away: presence asks answer at once"
          onClick={() =>
            api?.presence(!state.away).catch((e: Error) => dispatch({ type: 'problem', problem: e.message }))
          }
        >
          <span className={`presence-dot${state.away ? ' away' : ''}`} />
          {state.away ? 'Away' : 'Here'}
        </button>
        <button type="button" className="button ghost small" onClick={nextTheme} title="Light, dark, or as the system">
          {theme === 'system' ? (
            <>
              Auto<span className="wide-only"> theme</span>
            </>
          ) : theme === 'light' ? (
            'Light'
          ) : (
            'Dark'
          )}
        </button>
        <button
          type="button"
          className="button ghost small drawer-toggle"
          aria-expanded={drawer}
          aria-controls="side-panels"
          onClick={() => setDrawer(!drawer)}
        >
          Agents<span className="wide-only"> &amp; pages</span>
        </button>
      </header>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
      {state.notices.length > 0 && (
        <ul className="notices" aria-label="notifications">
          {state.notices.map((n) => (
            <li key={n.id} className="notice">
              <span className="notice-body">
                <strong>{n.title ?? n.agentId}</strong>
                {n.title && <span className="muted"> · {n.agentId}</span>}
                <span className="notice-text">{n.body}</span>
              </span>
              <button
                type="button"
                className="button ghost small"
                aria-label="dismiss"
                onClick={() => dispatch({ type: 'dismiss', id: n.id })}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="layout">
        <main className="main">
          <div className="main-scroll">
            <Cards asks={state.asks} pages={state.pages} send={send} onGone={gone} />
            <History
              api={api}
              dispatch={dispatch}
              messages={state.messages}
              agents={state.agents}
              inbox={state.inbox}
              view={view}
              onView={setView}
            />
          </div>
          <Composer api={api} agents={state.agents} to={to} onTo={setTo} inputRef={composer} />
        </main>
        <aside
          id="side-panels"
          className={`side-column drawer${drawer ? ' open' : ''}`}
          aria-label="agents and pages"
          onKeyDown={(e) => {
            if (e.key === 'Escape' && drawer) {
              e.stopPropagation();
              setDrawer(false);
            }
          }}
        >
          <button
            ref={drawerClose}
            type="button"
            className="button ghost small drawer-close"
            onClick={() => setDrawer(false)}
          >
            Close <kbd>Esc</kbd>
          </button>
          <AgentsPanel
            agents={state.agents}
            inbox={state.inbox}
            live={state.connection === 'live'}
            onSelect={selectAgent}
          />
          <PagesPanel
            pages={state.pages}
            heldOrigins={state.heldOrigins}
            allow={async (origin) => {
              if (!api) throw new Error('not connected to the bridge yet');
              await api.allowOrigin(origin);
            }}
          />
          {shortcut?.shortcutProblem && <p className="card-error">{shortcut.shortcutProblem}</p>}
          {shortcut?.notices?.map((notice) => (
            <p
              key={notice.text}
              className={notice.level === 'warning' ? 'card-error host-notice' : 'muted host-notice'}
            >
              {notice.text}
            </p>
          ))}
          <p className="shortcuts muted">
            {shortcut && !shortcut.shortcutProblem && (
              <>
                <kbd>{shortcut.shortcut}</kbd> anywhere: message all agents ·{' '}
              </>
            )}
            <kbd>Ctrl</kbd>+<kbd>K</kbd> or <kbd>/</kbd> message all agents · <kbd>1</kbd>–<kbd>9</kbd> pick ·{' '}
            <kbd>↵</kbd> answer · <kbd>Esc</kbd> reject · <kbd>P</kbd> pause
          </p>
        </aside>
      </div>
    </div>
  );
}
