import { sayFailure } from '../refusal.js';
import { useRef, useState, type RefObject } from 'react';
import type { AgentView, PushAnswer } from '../../../bridge/protocol/index.js';
import type { Api } from '../api.js';
import { useT } from '../i18n/index.js';
import { ImageTray } from '../images/ImageTray.js';
import { useImages } from '../images/useImages.js';

interface ComposerProps {
  api: Api | undefined;
  agents: AgentView[];
  to: string;
  onTo(to: string): void;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  /** no bridge: the message stays here until it can be sent */
  offline?: boolean;
}

/** Push a message to one agent or all; after sending, says which channel reached each agent. */
export function Composer({ api, agents, to, onTo, inputRef, offline = false }: ComposerProps) {
  const words = useT().composer;
  const [text, setText] = useState(() => sessionStorage.getItem('aiti.composer') ?? '');
  const [result, setResult] = useState<{ answer?: PushAnswer; error?: string; busy: boolean }>({ busy: false });
  const sending = useRef(false);
  const pictures = useImages((problem) => setResult({ error: problem, busy: false }));

  const edit = (value: string) => {
    setText(value);
    sessionStorage.setItem('aiti.composer', value);
  };

  const send = async () => {
    const body = text.trim();
    if (!api || !body || sending.current) return;
    if (offline) return setResult({ busy: false, error: words.kept });
    sending.current = true;
    setResult({ busy: true });
    try {
      const images = pictures.uploads();
      const answer = await api.push({ to, text: body, ...(images.length ? { images } : {}) });
      edit('');
      pictures.clear();
      setResult({ answer, busy: false });
    } catch (error) {
      setResult({ error: sayFailure(error), busy: false });
    } finally {
      sending.current = false;
    }
  };

  return (
    <form
      className="composer"
      aria-label={words.label}
      onPaste={pictures.onPaste}
      onDragOver={pictures.onDragOver}
      onDrop={pictures.onDrop}
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <div className="composer-row">
        <label className="composer-to">
          <span>{words.to}</span>
          <select className="field" aria-label={words.recipient} value={to} onChange={(e) => onTo(e.target.value)}>
            <option value="all">{words.all}</option>
            {agents.map((a) => (
              <option key={a.agentId} value={a.agentId}>
                {a.agentId}
                {a.online ? '' : words.offline}
              </option>
            ))}
          </select>
        </label>
        <textarea
          ref={inputRef}
          className="field composer-text"
          aria-label={words.field}
          rows={2}
          placeholder={words.placeholder(to === 'all' ? undefined : to)}
          value={text}
          onChange={(e) => edit(e.target.value)}
          onKeyDown={(e) => {
            // Enter sends, Shift+Enter is a new line; Ctrl+Enter (⌘↵) sends too, as mcp-feedback-enhanced
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
        />
        <button type="submit" className="button primary" disabled={!api || !text.trim() || result.busy || offline}>
          {words.send}
        </button>
      </div>
      <ImageTray images={pictures.images} remove={pictures.remove} />
      {result.error && (
        <p className="card-error" role="alert">
          {result.error}
        </p>
      )}
      {result.answer && (
        <ul className="deliveries" aria-label={words.deliveries}>
          {result.answer.delivered.length === 0 && <li className="muted">{words.nobody}</li>}
          {result.answer.delivered.map((d) => (
            <li key={d.msgId}>
              <strong>{d.agentId}</strong> <span className={`via via-${d.via}`}>{words.viaShort[d.via]}</span>{' '}
              <span className="muted">
                {words.via[d.via]}
                {d.imagesWaiting ? words.imagesWaiting(d.imagesWaiting) : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
