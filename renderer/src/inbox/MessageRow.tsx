import { AskRecord, type Message } from '../../../bridge/protocol/index.js';
import type { Api } from '../api.js';
import { AgentName } from '../AgentName.js';
import { ImageThumbs } from '../images/ImageThumbs.js';
import { clockTime } from '../time.js';
import { AskRecordRow } from './AskRecordRow.js';
import { useT } from '../i18n/index.js';
import { isPageEvent, messageKindLabel, notifyTitle, summarize } from './summary.js';

/** One history line: when, to whom, what, and how far it got (pending → delivered → consumed). */
export function MessageRow(props: {
  message: Message;
  showAgent: boolean;
  api?: Api;
  records?: ReadonlyMap<string, AskRecord> | undefined;
}) {
  const { message, showAgent, api, records } = props;
  const words = useT().history;
  const record = message.kind === 'ask' ? AskRecord.safeParse(message.payload) : undefined;
  if (record?.success) return <AskRecordRow message={message} record={record.data} showAgent={showAgent} />;
  const compact = isPageEvent(message);
  const notice = notifyTitle(message);
  return (
    <li
      className={`message${compact ? ' compact' : ''}${showAgent ? '' : ' no-agent'} kind-${message.kind}${notice !== undefined ? ' notify' : ''}`}
      data-msg-id={message.id}
    >
      <time className="message-time" dateTime={message.at}>
        {clockTime(message.at)}
      </time>
      <span className={`message-kind kind-${message.kind}`}>
        {notice !== undefined ? words.notified : messageKindLabel(message.kind)}
      </span>
      {showAgent && <AgentName agentId={message.agentId} className="message-agent" />}
      <span className="message-text">
        {notice && <strong>{notice} · </strong>}
        {summarize(message, records)}
        <ImageThumbs api={api} images={message.images} />
      </span>
      {notice === undefined && (
        <span className={`status-chip status-${message.status}`}>{words.status[message.status]}</span>
      )}
    </li>
  );
}

/** One push to several agents: sent once, so one line, with each agent's own status. */
export function PushRow({ messages, api }: { messages: Message[]; api?: Api }) {
  const words = useT().history;
  const [first] = messages;
  if (!first) return null;
  return (
    <li className="message push-row kind-user_message" data-msg-id={first.id}>
      <time className="message-time" dateTime={first.at}>
        {clockTime(first.at)}
      </time>
      <span className="message-kind kind-user_message">{messageKindLabel('user_message')}</span>
      <span className="message-agent push-count">{words.pushAgents(messages.length)}</span>
      <span className="message-text">
        {summarize(first)}
        <ImageThumbs api={api} images={first.images} />
        <span className="push-recipients">
          {messages.map((m) => (
            <span key={m.id} className="push-recipient">
              <AgentName agentId={m.agentId} />{' '}
              <span className={`status-chip status-${m.status}`}>{words.status[m.status]}</span>
            </span>
          ))}
        </span>
      </span>
    </li>
  );
}
