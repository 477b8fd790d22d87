import { useEffect, useRef, useState } from 'react';
import type { Api } from '../api.js';
import { host, type AitiHost } from '../host.js';
import { t, useT } from '../i18n/index.js';
import { AgentsPanel } from '../panels/AgentsPanel.js';
import { PagesPanel } from '../panels/PagesPanel.js';
import { DevicesPanel } from '../device/DevicesPanel.js';
import type { WindowState } from '../store.js';

interface SidePanelsProps {
  state: WindowState;
  api: Api | undefined;
  /** below 700 px the panels are a drawer: open or not */
  drawer: boolean;
  onClose(): void;
  onSelect(agentId: string): void;
}

/** Agents, pages, and the keys the window takes; a drawer on narrow screens. */
export function SidePanels({ state, api, drawer, onClose, onSelect }: SidePanelsProps) {
  const words = useT();
  const keys = words.shortcuts;
  const [shortcut, setShortcut] = useState<Awaited<ReturnType<NonNullable<AitiHost['hostInfo']>>>>();
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const ask = () =>
      host()
        ?.hostInfo?.()
        .then(setShortcut, () => undefined);
    ask();
    // the desktop says when its answer changed (notifications that started failing add a notice)
    const stop = host()?.onHostChange?.(ask);
    return () => {
      if (typeof stop === 'function') stop();
    };
  }, []);
  // the drawer takes the keyboard when it opens, so Tab walks its panels and Esc closes it
  useEffect(() => {
    if (drawer) close.current?.focus();
  }, [drawer]);
  return (
    <aside
      id="side-panels"
      className={`side-column drawer${drawer ? ' open' : ''}`}
      aria-label={words.drawer.label}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && drawer) {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <button ref={close} type="button" className="button ghost small drawer-close" onClick={onClose}>
        {words.drawer.close} <kbd aria-hidden>Esc</kbd>
      </button>
      <AgentsPanel agents={state.agents} inbox={state.inbox} live={state.connection === 'live'} onSelect={onSelect} />
      <PagesPanel
        pages={state.pages}
        heldOrigins={state.heldOrigins}
        live={state.connection === 'live'}
        allow={async (origin) => {
          if (!api) throw new Error(t().problems.notConnected);
          await api.allowOrigin(origin);
        }}
      />
      <DevicesPanel desk={api?.desk} live={state.connection === 'live'} />
      {shortcut?.shortcutProblem && <p className="card-error">{shortcut.shortcutProblem}</p>}
      {shortcut?.notices?.map((notice) => (
        <p key={notice.text} className={notice.level === 'warning' ? 'card-error host-notice' : 'muted host-notice'}>
          {notice.text}
        </p>
      ))}
      <p className="shortcuts muted">
        {shortcut && !shortcut.shortcutProblem && (
          <>
            <kbd>{shortcut.shortcut}</kbd> {keys.anywhere} ·{' '}
          </>
        )}
        <kbd>Ctrl</kbd>+<kbd>K</kbd> / <kbd>/</kbd> {keys.compose} · <kbd>1</kbd>–<kbd>9</kbd> {keys.pick} ·{' '}
        <kbd>↵</kbd> {keys.answer} · <kbd>Esc</kbd> {keys.reject} · <kbd>P</kbd> {keys.pause} · <kbd>J</kbd> {keys.jump}{' '}
        · <kbd>Ctrl</kbd>+<kbd>.</kbd> {keys.quick} · <kbd>Ctrl</kbd>+<kbd>↵</kbd> {keys.submit} · <kbd>Ctrl</kbd>+
        <kbd>I</kbd> {keys.focusInput}
      </p>
    </aside>
  );
}
