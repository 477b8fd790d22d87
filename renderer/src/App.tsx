import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AnswerBody } from '../../bridge/protocol/index.js';
import { Cards } from './cards/Cards.js';
import { OpenStrip } from './cards/OpenStrip.js';
import { Composer } from './composer/Composer.js';
import { host, onComposeRequest, onOpenAskRequest, type AitiHost } from './host.js';
import { ALL, History } from './inbox/History.js';
import { isTyping } from './keys.js';
import { AgentsPanel } from './panels/AgentsPanel.js';
import { PagesPanel } from './panels/PagesPanel.js';
import { dropDraft } from './drafts.js';
import { askRecords } from './inbox/records.js';
import { ConnectionBanner } from './shell/ConnectionBanner.js';
import { Notices } from './shell/Notices.js';
import { TokenGate } from './shell/TokenGate.js';
import { TopBar } from './shell/TopBar.js';
import { openAsks } from './store.js';
import { useTheme } from './theme.js';
import { useAnnouncement } from './announce.js';
import { useBridge } from './useBridge.js';

const UNREACHABLE =
  'The bridge did not answer: nothing was sent. What you typed is kept here; send it again once the window is connected.';

export function App() {
  const { state, api, dispatch } = useBridge();
  const [theme, nextTheme] = useTheme();
  const [view, setView] = useState(ALL);
  const [to, setTo] = useState('all');
  const composer = useRef<HTMLTextAreaElement>(null);

  const [shortcut, setShortcut] = useState<Awaited<ReturnType<NonNullable<AitiHost['hostInfo']>>>>();
  const [drawer, setDrawer] = useState(false);
  const [activeAsk, setActiveAsk] = useState<string>();
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
  const live = state.connection === 'live';
  const records = useMemo(() => askRecords(state.messages), [state.messages]);
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
        // fetch's own words ("Failed to fetch") say nothing to the human about what happened to the answer
        if (error instanceof TypeError) throw new Error(UNREACHABLE);
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
    return <TokenGate impostor={state.connection === 'impostor'} problem={state.problem} />;
  }

  return (
    <div className="app">
      <TopBar
        connection={state.connection}
        problem={state.problem}
        away={state.away}
        onPresence={() =>
          api?.presence(!state.away).catch((e: Error) => dispatch({ type: 'problem', problem: e.message }))
        }
        theme={theme}
        onTheme={nextTheme}
        drawer={drawer}
        onDrawer={() => setDrawer(!drawer)}
      />
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
      <ConnectionBanner connection={state.connection} cards={open} />
      <Notices notices={state.notices} dispatch={dispatch} />
      <div className="layout">
        <main className="main">
          <OpenStrip asks={openAsks(state.asks)} active={activeAsk} />
          <div className="main-scroll">
            <Cards
              asks={state.asks}
              pages={state.pages}
              send={send}
              onGone={gone}
              offline={!live}
              records={records}
              onActive={setActiveAsk}
            />
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
          <Composer api={api} agents={state.agents} to={to} onTo={setTo} inputRef={composer} offline={!live} />
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
