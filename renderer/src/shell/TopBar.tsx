import type { Connection } from '../store.js';
import type { Theme } from '../theme.js';

const CONNECTION_LABEL: Record<Connection, string> = {
  connecting: 'Connecting…',
  live: 'Connected',
  reconnecting: 'Reconnecting…',
  impostor: 'Not the bridge',
  no_token: 'No token',
};

interface TopBarProps {
  connection: Connection;
  problem?: string | undefined;
  away: boolean;
  onPresence(): void;
  theme: Theme;
  onTheme(): void;
  drawer: boolean;
  onDrawer(): void;
}

/** The brand, the connection, the last problem, and the human's switches: presence, theme, side panels. */
export function TopBar({ connection, problem, away, onPresence, theme, onTheme, drawer, onDrawer }: TopBarProps) {
  return (
    <header className="topbar">
      <span className="brand">
        <span className="logo" aria-hidden />
        <span className="brand-name">AITI Bridge</span>
      </span>
      <span className={`connection conn-${connection}`} role="status">
        <span className="dot" />
        <span className="conn-label">{CONNECTION_LABEL[connection]}</span>
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
        title="Tell agents you are away: presence asks answer at once"
        onClick={onPresence}
      >
        <span className={`presence-dot${away ? ' away' : ''}`} />
        {away ? 'Away' : 'Here'}
      </button>
      <button type="button" className="button ghost small" onClick={onTheme} title="Light, dark, or as the system">
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
        onClick={onDrawer}
      >
        Agents<span className="wide-only"> &amp; pages</span>
      </button>
    </header>
  );
}
