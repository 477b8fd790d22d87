import { useT } from '../i18n/index.js';
import type { Connection } from '../store.js';
import type { Theme } from '../theme.js';

interface TopBarProps {
  connection: Connection;
  problem?: string | undefined;
  away: boolean;
  onPresence(): void;
  theme: Theme;
  onTheme(): void;
  drawer: boolean;
  onDrawer(): void;
  settings: boolean;
  onSettings(): void;
}

/** The brand, the connection, the last problem, and the human's switches: presence, theme, settings, panels. */
export function TopBar(props: TopBarProps) {
  const { connection, problem, away, onPresence, theme, onTheme, drawer, onDrawer, settings, onSettings } = props;
  const words = useT();
  const top = words.top;
  return (
    <header className="topbar">
      <span className="brand">
        <span className="logo" aria-hidden />
        <span className="brand-name">{words.app.name}</span>
      </span>
      <span className={`connection conn-${connection}`} role="status">
        <span className="dot" />
        <span className="conn-label">{top.connection[connection]}</span>
      </span>
      {problem && (
        <span className="problem" title={problem}>
          {problem}
        </span>
      )}
      <span className="spacer" />
      <button
        type="button"
        className={`button ghost small${away ? ' pressed' : ''}`}
        aria-pressed={away}
        disabled={connection !== 'live'}
        title={top.presenceTitle}
        onClick={onPresence}
      >
        <span className={`presence-dot${away ? ' away' : ''}`} />
        {away ? top.away : top.here}
      </button>
      <button type="button" className="button ghost small" onClick={onTheme} title={top.theme.title}>
        {theme === 'system' ? (
          <>
            {top.theme.system}
            <span className="wide-only">{top.theme.systemWide}</span>
          </>
        ) : theme === 'light' ? (
          top.theme.light
        ) : (
          top.theme.dark
        )}
      </button>
      <button
        type="button"
        className="button ghost small"
        aria-expanded={settings}
        aria-controls="settings"
        onClick={onSettings}
      >
        {top.settings}
      </button>
      <button
        type="button"
        className="button ghost small drawer-toggle"
        aria-expanded={drawer}
        aria-controls="side-panels"
        onClick={onDrawer}
      >
        {top.panels}
        <span className="wide-only">{top.panelsWide}</span>
      </button>
    </header>
  );
}
