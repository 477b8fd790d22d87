import { useRef, useState, type RefObject } from 'react';
import type { AgentView, PushAnswer } from '../../../bridge/protocol/index.js';
import type { Api } from '../api.js';
import { ImageTray } from '../images/ImageTray.js';
import { useImages } from '../images/useImages.js';

const CHANNEL_LABEL: Record<PushAnswer['delivered'][number]['via'], string> = {
  channel: 'shown in the conversation',
  sampling: 'sent as a sampling request',
  inbox: 'waiting in the inbox',
};

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
    if (offline) return setResult({ busy: false, error: 'No connection to the bridge: the message is kept here.' });
    sending.current = true;
    setResult({ busy: true });
    try {
      const images = pictures.uploads();
      const answer = await api.push({ to, text: body, ...(images.length ? { images } : {}) });
      edit('');
      pictures.clear();
      setResult({ answer, busy: false });
    } catch (error) {
      setResult({ error: error instanceof Error ? error.message : String(error), busy: false });
    } finally {
      sending.current = false;
    }
  };

  return (
    <form
      className="composer"
      aria-label="push a message"
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
          <span>To</span>
          <select className="field" aria-label="recipient" value={to} onChange={(e) => onTo(e.target.value)}>
            <option value="all">All agents</option>
            {agents.map((a) => (
              <option key={a.agentId} value={a.agentId}>
                {a.agentId}
                {a.online ? '' : ' (offline)'}
              </option>
            ))}
          </select>
        </label>
        <textarea
          ref={inputRef}
          className="field composer-text"
          aria-label="message"
          rows={2}
          placeholder={`Message ${to === 'all' ? 'every agent' : to}…   ↵ sends · Shift+↵ new line`}
          value={text}
          onChange={(e) => edit(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
        />
        <button type="submit" className="button primary" disabled={!api || !text.trim() || result.busy || offline}>
          Send
        </button>
      </div>
      <ImageTray images={pictures.images} remove={pictures.remove} />
      {result.error && (
        <p className="card-error" role="alert">
          {result.error}
        </p>
      )}
      {result.answer && (
        <ul className="deliveries" aria-label="delivery">
          {result.answer.delivered.length === 0 && <li className="muted">No agent to deliver to yet.</li>}
          {result.answer.delivered.map((d) => (
            <li key={d.msgId}>
              <strong>{d.agentId}</strong> <span className={`via via-${d.via}`}>{d.via}</span>{' '}
              <span className="muted">
                {CHANNEL_LABEL[d.via]}
                {d.imagesWaiting
                  ? `: text only, ${d.imagesWaiting} image${d.imagesWaiting === 1 ? '' : 's'} waiting in its inbox`
                  : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
