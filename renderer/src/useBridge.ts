import { useEffect, useMemo, useReducer, useRef, useState, type Dispatch } from 'react';
import { ApiError, createApi, type Api } from './api.js';
import { publishDevices } from './device/desk-feed.js';
import { UNPAIRED } from './device/device-api.js';
import { loadDeviceKeys } from './device/device-store.js';
import { pruneDrafts } from './drafts.js';
import { t } from './i18n/index.js';
import { apiBase, resolveToken } from './host.js';
import { initialState, reduce, type Action, type WindowState } from './store.js';
import { saveNotices, withSavedNotices } from './shell/saved-notices.js';
import { openStream } from './stream.js';
import { nothingAnswered, sayFailure } from './refusal.js';

/** Newest messages fetched on every (re)connection, to fill what the stream could not carry while down. */
export const HISTORY_PAGE = 100;

/** The window's connection to the bridge: token, REST api, and the role=ai stream folded into one state. */
export function useBridge(): { state: WindowState; api: Api | undefined; dispatch: Dispatch<Action> } {
  const [state, dispatch] = useReducer(reduce, initialState, withSavedNotices);
  useEffect(() => saveNotices(state.notices), [state.notices]);
  const [api, setApi] = useState<Api>();
  const statusTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    void (async () => {
      let token: string | undefined;
      try {
        token = await resolveToken();
      } catch (error) {
        // the desktop app gives the token only after the bridge proved it holds it again (electron/bridge-host.ts)
        dispatch({ type: 'problem', problem: error instanceof Error ? error.message : String(error) });
        return dispatch({ type: 'connection', connection: 'impostor' });
      }
      if (cancelled) return;
      // no token: a paired device (its keys are in this origin's storage), or nobody
      const keys = token ? undefined : await loadDeviceKeys();
      const device = Boolean(keys);
      if (cancelled) return;
      const credential = token ?? keys;
      if (!credential) return dispatch({ type: 'connection', connection: 'no_token' });
      const client = createApi(apiBase(), credential);
      if (cancelled) return;
      setApi(client);
      let lastProblem = '';
      const refreshCounts = () => {
        clearTimeout(statusTimer.current);
        statusTimer.current = setTimeout(() => {
          client.inboxStatus().then(
            (answer) => dispatch({ type: 'inbox_status', answer }),
            () => undefined, // counts stay as the last state event gave them
          );
        }, 300);
      };
      stop = openStream(
        { url: () => client.streamUrl(), prove: () => client.prove() },
        {
          // a device the bridge no longer knows is unpaired; anything else that fails its proof is an impostor
          onStatus: (connection) =>
            dispatch({
              type: 'connection',
              connection: device && connection === 'impostor' && lastProblem === UNPAIRED ? 'unpaired' : connection,
            }),
          onProblem: (problem) => {
            lastProblem = problem;
            dispatch({ type: 'problem', problem });
          },
          onEvent: (event) => {
            const now = performance.now();
            switch (event.event) {
              case 'state':
                return dispatch({ type: 'state', state: event.data, now });
              case 'ask':
                return dispatch({ type: 'ask', ask: event.data, now });
              case 'ask_update':
                return dispatch({ type: 'ask_update', update: event.data, now });
              case 'agents':
                return dispatch({ type: 'agents', agents: event.data.agents });
              case 'pages':
                return dispatch({ type: 'pages', delta: event.data });
              case 'message':
                refreshCounts();
                return dispatch({ type: 'messages', messages: [event.data] });
              case 'message_status':
                refreshCounts();
                return dispatch({ type: 'message_status', status: event.data });
              case 'presence':
                return dispatch({ type: 'presence', away: event.data.away });
              case 'notify': {
                const { agentId, title, body } = event.data;
                return dispatch({ type: 'notify', notice: { agentId, body, ...(title ? { title } : {}) } });
              }
              case 'devices':
                return publishDevices(event.data);
              case 'ping':
                return;
              default: {
                const unknown: never = event;
                return unknown;
              }
            }
          },
        },
      );
    })();
    return () => {
      cancelled = true;
      clearTimeout(statusTimer.current);
      stop?.();
    };
  }, []);

  // a draft lives as long as its card, ended cards included (the human sees what they had not sent)
  useEffect(() => {
    if (state.generation > 0) pruneDrafts(state.asks.map((a) => a.askId));
  }, [state.asks, state.generation]);

  // every (re)connection: fetch the newest history, merged by id, so a drop loses nothing and doubles nothing
  useEffect(() => {
    if (!api || state.generation === 0) return;
    api.messages({ limit: HISTORY_PAGE }).then(
      (answer) => dispatch({ type: 'messages', messages: answer.messages }),
      (error: unknown) => {
        // the bridge went away meanwhile: the connection says so, and the next connection fetches again
        if (nothingAnswered(error)) return;
        // a read changed nothing: the bridge's refusal, not sayFailure's "nothing was saved"
        const why =
          error instanceof ApiError && error.status > 0
            ? t().problems.refused(error.status, error.detail)
            : sayFailure(error);
        dispatch({ type: 'problem', problem: t().problems.historyNotLoaded(why) });
      },
    );
  }, [api, state.generation]);

  return useMemo(() => ({ state, api, dispatch }), [state, api]);
}
