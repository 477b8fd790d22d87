import { useRef } from 'react';
import type { Message } from '../../../bridge/protocol/index.js';
import { useT } from '../i18n/index.js';
import { download, exportName, historyCsv, historyJson, historyMarkdown } from './export.js';

/** Export what History has loaded, of all agents or of the one in view, as Markdown or JSON. */
export function ExportMenu(props: { messages: readonly Message[]; scope: string; agentId?: string | undefined }) {
  const { messages, scope, agentId } = props;
  const file = agentId ?? 'all';
  const menu = useRef<HTMLDetailsElement>(null);
  const save = (extension: 'md' | 'json' | 'csv') => {
    if (extension === 'md') download(exportName(file, 'md'), 'text/markdown', historyMarkdown(messages, scope));
    else if (extension === 'csv') download(exportName(file, 'csv'), 'text/csv', historyCsv(messages));
    else download(exportName(file, 'json'), 'application/json', historyJson(messages, scope));
    if (menu.current) menu.current.open = false;
  };
  const words = useT().history;
  if (!messages.length) return null;
  return (
    <details className="export-menu" ref={menu}>
      <summary className="button ghost small" title={words.exportWhat(scope)}>
        {words.export}
      </summary>
      <div className="export-choices" role="group" aria-label={words.exportWhat(scope)}>
        <button type="button" className="button ghost small" onClick={() => save('md')}>
          {words.exportMarkdown}
        </button>
        <button type="button" className="button ghost small" onClick={() => save('json')}>
          {words.exportJson}
        </button>
        <button type="button" className="button ghost small" onClick={() => save('csv')}>
          {words.exportCsv}
        </button>
      </div>
    </details>
  );
}
