import { useEffect, useRef, useState } from 'react';
import { useT, type LanguageChoice } from '../i18n/index.js';
import { useQuickBook } from '../quick/context.js';
import type { QuickKind } from '../quick/useQuickReplies.js';
import { SOUNDS, type Settings, type SoundName } from './settings.js';
import { THEMES, type Theme } from '../theme.js';
import { chime, unlockSound } from './alerts.js';
import { AutoRules } from './AutoRules.js';

interface SettingsPanelProps {
  language: LanguageChoice;
  onLanguage(choice: LanguageChoice): void;
  theme: Theme;
  onTheme(theme: Theme): void;
  settings: Settings;
  onSettings(change: Partial<Settings>): void;
  /** the desktop app notifies by itself: its window shows no sound or notification switches */
  desktop: boolean;
  /** agents the window knows, for auto-answer rules */
  agents: readonly string[];
  onClose(): void;
}

/**
 * The window's settings as a modal dialog (it takes the keyboard and covers the cards on purpose, until Esc or
 * Close): language, theme, sound and notification on a new ask, auto-answer rules, and the quick replies to edit.
 */
export function SettingsPanel(props: SettingsPanelProps) {
  const { language, onLanguage, theme, onTheme, settings, onSettings, desktop, agents, onClose } = props;
  const words = useT().settings;
  const [denied, setDenied] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    // what had the focus (the Settings button) gets it back when the dialog goes
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const box = dialog.current;
    if (box && !box.open) box.showModal?.();
    return () => before?.focus();
  }, []);
  const wantNotifications = async (on: boolean) => {
    if (!on) return onSettings({ notify: false });
    if (typeof Notification === 'undefined') return setDenied(true);
    const permission =
      Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
    setDenied(permission !== 'granted');
    onSettings({ notify: permission === 'granted' });
  };
  return (
    <dialog
      id="settings"
      className="settings panel"
      aria-labelledby="settings-title"
      ref={dialog}
      // Esc closes the modal dialog natively; the window's state follows
      onClose={onClose}
    >
      <header className="panel-head">
        <h2 className="panel-title" id="settings-title">
          {words.title}
        </h2>
        <button type="button" className="button ghost small" onClick={onClose}>
          {words.close} <kbd aria-hidden>Esc</kbd>
        </button>
      </header>
      <label className="setting">
        <span>{words.language}</span>
        <select className="field" value={language} onChange={(e) => onLanguage(e.target.value as LanguageChoice)}>
          <option value="system">{words.system}</option>
          <option value="en" lang="en">
            English
          </option>
          <option value="zh-CN" lang="zh-CN">
            简体中文
          </option>
          <option value="zh-TW" lang="zh-TW">
            繁體中文
          </option>
        </select>
      </label>
      <label className="setting">
        <span>{words.theme}</span>
        <select className="field" value={theme} onChange={(e) => onTheme(e.target.value as Theme)}>
          {THEMES.map((name) => (
            <option key={name} value={name}>
              {words.themes[name]}
            </option>
          ))}
        </select>
      </label>
      {desktop ? (
        <p className="muted">{words.notifyDesktop}</p>
      ) : (
        <>
          <label className="setting check">
            <input type="checkbox" checked={settings.sound} onChange={(e) => onSettings({ sound: e.target.checked })} />
            <span>{words.sound}</span>
          </label>
          {settings.sound && (
            <div className="setting sound-row">
              <label>
                <span>{words.soundChoice}</span>{' '}
                <select
                  className="field"
                  value={settings.soundName}
                  onChange={(e) => onSettings({ soundName: e.target.value as SoundName })}
                >
                  {SOUNDS.map((name) => (
                    <option key={name} value={name}>
                      {words.sounds[name]}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                <span>{words.volume}</span>{' '}
                <input
                  type="range"
                  min={0}
                  max={100}
                  step={5}
                  value={Math.round(settings.volume * 100)}
                  aria-valuetext={`${Math.round(settings.volume * 100)} %`}
                  onChange={(e) => onSettings({ volume: Number(e.target.value) / 100 })}
                />
              </label>
              <button
                type="button"
                className="button ghost small"
                onClick={() => {
                  unlockSound();
                  chime(settings.soundName, settings.volume);
                }}
              >
                {words.playSound}
              </button>
            </div>
          )}
          <label className="setting check">
            <input
              type="checkbox"
              checked={settings.notify}
              onChange={(e) => void wantNotifications(e.target.checked)}
            />
            <span>{words.notify}</span>
          </label>
          {denied && <p className="card-error">{words.notifyDenied}</p>}
        </>
      )}
      <AutoRules rules={settings.autoRules} agents={agents} onRules={(autoRules) => onSettings({ autoRules })} />
      <QuickRepliesEditor kind="answer" />
      <QuickRepliesEditor kind="reason" />
    </dialog>
  );
}

/** Add, edit and remove the quick replies of one kind, most used first. */
function QuickRepliesEditor({ kind }: { kind: QuickKind }) {
  const words = useT().quick;
  const book = useQuickBook();
  const [draft, setDraft] = useState('');
  const [editing, setEditing] = useState<{ id: string; text: string }>();
  const [problem, setProblem] = useState<string>();
  const run = (work: Promise<void>, after: () => void) =>
    work.then(
      () => (after(), setProblem(undefined)),
      (e: Error) => setProblem(e.message),
    );
  const replies = book.of(kind);
  return (
    <div className="quick-editor" role="group" aria-label={kind === 'reason' ? words.reasons : words.answers}>
      <h3 className="setting-title">
        {words.title}: {kind === 'reason' ? words.reasons : words.answers}
      </h3>
      <ul className="quick-list">
        {replies.map((reply) => (
          <li key={reply.id}>
            {editing?.id === reply.id ? (
              <>
                <input
                  className="field"
                  aria-label={words.edit}
                  value={editing.text}
                  onChange={(e) => setEditing({ id: reply.id, text: e.target.value })}
                />
                <button
                  type="button"
                  className="button small"
                  disabled={!editing.text.trim()}
                  onClick={() => void run(book.edit(reply.id, editing.text), () => setEditing(undefined))}
                >
                  {words.done}
                </button>
              </>
            ) : (
              <>
                <span className="quick-text">{reply.text}</span>
                <span className="muted quick-uses">{words.used(reply.uses)}</span>
                <button
                  type="button"
                  className="button ghost small"
                  onClick={() => setEditing({ id: reply.id, text: reply.text })}
                >
                  {words.edit}
                </button>
                <button
                  type="button"
                  className="button ghost small"
                  onClick={() => void run(book.remove(reply.id), () => undefined)}
                >
                  {words.remove}
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      <form
        className="quick-add"
        onSubmit={(e) => {
          e.preventDefault();
          if (!draft.trim()) return setProblem(words.empty);
          void run(book.add(kind, draft), () => setDraft(''));
        }}
      >
        <input
          className="field"
          aria-label={words.newPlaceholder}
          placeholder={words.newPlaceholder}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" className="button small">
          {words.add}
        </button>
      </form>
      {(problem ?? book.error) && <p className="card-error">{problem ?? words.unavailable(book.error ?? '')}</p>}
    </div>
  );
}
