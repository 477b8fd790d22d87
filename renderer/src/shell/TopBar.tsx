import { useT } from '../i18n/index.js';
import type { Connection } from '../store.js';

interface TopBarProps {
  connection: Connection;
  problem?: string | undefined;
  away: boolean;
  onPresence(): void;
  /** notices in the list; their button keeps its place even at 0, so nothing beside it moves when one comes */
  notices: number;
  noticesOpen: boolean;
  onNotices(): void;
  drawer: boolean;
  onDrawer(): void;
  onSettings(): void;
}

/** The brand, the connection, the last problem, and the human's switches: notices, presence, settings, panels. */
export function TopBar(props: TopBarProps) {
  const { connection, problem, away, onPresence, notices, noticesOpen, onNotices, drawer, onDrawer, onSettings } =
    props;
  const words = useT();
  const top = words.top;
  return (
    <header className="topbar">
      <h1 className="brand">
        <span className="logo" aria-hidden />
        <span className="brand-name">{words.app.name}</span>
      </h1>
      <span className={`connection conn-${connection}`} role="status">
        <span className="dot" />
        <span className="conn-label">{top.connection[connection]}</span>
      </span>
      <button
        type="button"
        className={`button ghost small notices-button${notices ? ' has-notices' : ''}`}
        aria-expanded={noticesOpen}
        disabled={notices === 0 && !noticesOpen}
        title={top.noticesTitle}
        aria-label={top.notices(notices)}
        onClick={onNotices}
      >
        <svg className="bell" viewBox="0 0 16 16" width="14" height="14" aria-hidden focusable="false">
          <path d="M8 1.5a4.5 4.5 0 0 0-4.5 4.5v3L2 11.5h12L12.5 9V6A4.5 4.5 0 0 0 8 1.5Zm-1.8 11.5a1.8 1.8 0 0 0 3.6 0Z" />
        </svg>
        <span className="notices-count">{notices}</span>
        <span className="notices-word"> {top.noticesWord(notices)}</span>
      </button>
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
      <button type="button" className="button ghost small" aria-haspopup="dialog" onClick={onSettings}>
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
