import { useState } from 'react';
import type { AskRecord, Message } from '../../../bridge/protocol/index.js';
import { kindLabel } from '../cards/options.js';
import { outcomeDetails, outcomeLabel } from '../cards/outcome.js';
import { AgentName } from '../AgentName.js';
import { useT } from '../i18n/index.js';
import { splitQuestion } from '../cards/Prompt.js';
import { Markdown } from '../markdown/Markdown.js';
import { clockTime } from '../time.js';
import { CommandView } from '../cards/CommandView.js';
import { promptOf } from '../cards/said.js';

/**
 * One ask in History: when, who asked, what, and how it ended with who decided (you, the agent or the bridge).
 * Every ask has one — sync, async, and those answered `away` without a card.
 */
export function AskRecordRow({
  message,
  record,
  showAgent,
}: {
  message: Message;
  record: AskRecord;
  showAgent: boolean;
}) {
  const words = useT().history;
  const [open, setOpen] = useState(false);
  const prompt = promptOf(record);
  const long = prompt.length > 160 || prompt.includes('\n');
  const { label, tone } = outcomeLabel(record.kind, { outcome: record, here: true });
  const detail = [
    ...outcomeDetails(record.kind, record, false),
    ...(record.shown ? [] : [words.noCard]),
    ...(record.async ? [words.async] : []),
  ].join(' · ');
  return (
    <li
      className={`message ask-record${showAgent ? '' : ' no-agent'} kind-ask`}
      data-msg-id={message.id}
      data-ask-id={record.askId}
      data-outcome={record.status}
      data-decided-by={record.decidedBy}
    >
      <time className="message-time" dateTime={record.endedAt}>
        {clockTime(record.endedAt)}
      </time>
      <span className="message-kind kind-ask">{kindLabel(record.kind)}</span>
      {showAgent && <AgentName agentId={record.agentId} className="message-agent" />}
      <span className="message-text">
        <Markdown
          text={open ? prompt : splitQuestion(prompt).question || prompt}
          className={`record-prompt${open ? ' open' : ''}`}
        />
        {long && (
          <button type="button" className="button link small" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? words.fold : words.showQuestion}
          </button>
        )}
        {record.command && <CommandView cmd={record.command.cmd} args={record.command.args} />}
        <span className="record-detail">{detail}</span>
      </span>
      <span className={`outcome-chip tone-${tone}`}>{label}</span>
    </li>
  );
}
