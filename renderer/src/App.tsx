import { sayFailure } from './refusal.js';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AnswerBody } from '../../bridge/protocol/index.js';
import { Cards } from './cards/Cards.js';
import { OpenStrip } from './cards/OpenStrip.js';
import { Composer } from './composer/Composer.js';
import { host, onComposeRequest, onOpenAskRequest } from './host.js';
import { ALL, History } from './inbox/History.js';
import { isTyping } from './keys.js';
import { t, useT, type LanguageChoice } from './i18n/index.js';
import { QuickRepliesContext } from './quick/context.js';
import { useQuickReplies } from './quick/useQuickReplies.js';
import { unlockSound, useAskAlerts } from './shell/alerts.js';
import { SettingsPanel } from './shell/SettingsPanel.js';
import { useSettings } from './shell/settings.js';
import { SidePanels } from './shell/SidePanels.js';
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
import { PairingCards } from './device/PairingCards.js';
import { assignHues } from './agent-colour.js';
import { focusInput } from './cards/focus.js';
import { Unpaired } from './device/Unpaired.js';

/** Whether a desktop shell hosts the window: it notifies by itself then. */
const desktop = host() !== undefined;

export function App({ language, onLanguage }: { language: LanguageChoice; onLanguage(choice: LanguageChoice): void }) {
  const { state, api, dispatch } = useBridge();
  const [theme, setTheme] = useTheme();
  const [view, setView] = useState(ALL);
  const [to, setTo] = useState('all');
  const composer = useRef<HTMLTextAreaElement>(null);

  const [drawer, setDrawer] = useState(false);
  const [showSettings, setShowSettings] = useState(false);
  const [showNotices, setShowNotices] = useState(false);
  const [settings, changeSettings] = useSettings();
  const [activeAsk, setActiveAsk] = useState<string>();
  const quickBook = useQuickReplies(api);
  const words = useT();
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
  // a page may make sound only after the human touched it
  useEffect(() => {
    document.addEventListener('pointerdown', unlockSound);
    document.addEventListener('keydown', unlockSound);
    return () => {
      document.removeEventListener('pointerdown', unlockSound);
      document.removeEventListener('keydown', unlockSound);
    };
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      const modK = mod && event.key.toLowerCase() === 'k';
      if (modK || (event.key === '/' && !isTyping(event.target))) {
        event.preventDefault();
        compose();
        return;
      }
      // Ctrl+I (as mcp-feedback-enhanced): type in the card the keys act on, else in the message
      if (mod && !event.altKey && event.key.toLowerCase() === 'i') {
        event.preventDefault();
        if (!focusInput()) compose();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [compose]);

  // every agent on screen gets a hue no other agent present has (assigned, not hashed)
  assignHues([...state.agents.map((a) => a.agentId), ...state.asks.map((a) => a.agentId)]);
  const open = openAsks(state.asks).length;
  const live = state.connection === 'live';
  const records = useMemo(() => askRecords(state.messages), [state.messages]);
  useEffect(() => {
    document.title = words.app.title(open);
  }, [open, words]);
  useAskAlerts(state.asks, state.generation, settings, !desktop);

  const send = useCallback(
    async (body: AnswerBody) => {
      if (!api) throw new Error(t().problems.notConnected);
      const ends = body.action === 'answer' || body.action === 'reject';
      // marked before the call: the stream may report the end before the POST answers
      if (ends) dispatch({ type: 'sending', askId: body.askId, sending: true });
      try {
        await api.answer(body);
      } catch (error) {
        if (ends) dispatch({ type: 'sending', askId: body.askId, sending: false });
        // neither fetch's words ("Failed to fetch") nor the bridge's English tell the human what became of it
        throw new Error(sayFailure(error));
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

  if (state.connection === 'unpaired') return <Unpaired />;
  if (state.connection === 'no_token' || state.connection === 'impostor') {
    return <TokenGate impostor={state.connection === 'impostor'} problem={state.problem} />;
  }

  return (
    <QuickRepliesContext.Provider value={quickBook}>
      <div className="app">
        <TopBar
          connection={state.connection}
          problem={state.problem}
          away={state.away}
          onPresence={() =>
            api?.presence(!state.away).catch((e: unknown) => dispatch({ type: 'problem', problem: sayFailure(e) }))
          }
          notices={state.notices.length}
          noticesOpen={showNotices}
          onNotices={() => setShowNotices(!showNotices)}
          drawer={drawer}
          onDrawer={() => setDrawer(!drawer)}
          onSettings={() => setShowSettings(true)}
        />
        {showSettings && (
          <SettingsPanel
            language={language}
            onLanguage={onLanguage}
            theme={theme}
            onTheme={setTheme}
            settings={settings}
            onSettings={changeSettings}
            desktop={desktop}
            agents={state.agents.map((a) => a.agentId)}
            onClose={() => setShowSettings(false)}
          />
        )}
        <p className="visually-hidden" aria-live="polite" aria-atomic="true">
          {announcement}
        </p>
        <ConnectionBanner connection={state.connection} cards={open} />
        <Notices notices={state.notices} open={showNotices} onClose={() => setShowNotices(false)} dispatch={dispatch} />
        <div className="layout">
          <main className="main">
            <OpenStrip asks={openAsks(state.asks)} active={activeAsk} />
            <div className="main-scroll">
              <PairingCards desk={api?.desk} />
              <Cards
                asks={state.asks}
                pages={state.pages}
                send={send}
                onGone={gone}
                offline={!live}
                records={records}
                onActive={setActiveAsk}
                autoRules={settings.autoRules}
              />
              <History
                api={api}
                dispatch={dispatch}
                messages={state.messages}
                agents={state.agents}
                inbox={state.inbox}
                view={view}
                onView={setView}
                records={records}
              />
            </div>
            <Composer api={api} agents={state.agents} to={to} onTo={setTo} inputRef={composer} offline={!live} />
          </main>
          <SidePanels state={state} api={api} drawer={drawer} onClose={() => setDrawer(false)} onSelect={selectAgent} />
        </div>
      </div>
    </QuickRepliesContext.Provider>
  );
}
