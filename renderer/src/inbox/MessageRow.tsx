import { AskRecord, type Message } from '../../../bridge/protocol/index.js';
import { clockTime } from '../time.js';
import { AskRecordRow } from './AskRecordRow.js';
import { KIND_LABEL, isPageEvent, summarize } from './summary.js';

/** One history line: when, to whom, what, and how far it got (pending → delivered → consumed). */
export function MessageRow({ message, showAgent }: { message: Message; showAgent: boolean }) {
  const record = message.kind === 'ask' ? AskRecord.safeParse(message.payload) : undefined;
  if (record?.success) return <AskRecordRow message={message} record={record.data} showAgent={showAgent} />;
  const compact = isPageEvent(message);
  return (
    <li
      className={`message${compact ? ' compact' : ''}${showAgent ? '' : ' no-agent'} kind-${message.kind}`}
      data-msg-id={message.id}
    >
      <time className="message-time" dateTime={message.at}>
        {clockTime(message.at)}
      </time>
      <span className={`message-kind kind-${message.kind}`}>{KIND_LABEL[message.kind]}</span>
      {showAgent && <span className="message-agent">{message.agentId}</span>}
      <span className="message-text">{summarize(message)}</span>
      <span className={`status-chip status-${message.status}`}>{message.status}</span>
    </li>
  );
}
