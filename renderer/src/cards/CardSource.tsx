import { AgentName } from '../AgentName.js';

/** Where a card comes from, as the card says it. */
export interface PageLabel {
  /** the page's own title, as it reported it (page data, shown as text) */
  title?: string | undefined;
  /** the page's address, shortened */
  url?: string | undefined;
}

/**
 * Who asks and from which page: the agent's name always shows whole (it is who you answer); the page's title
 * and then its address give way first when the card is narrow.
 */
export function CardSource({ agentId, page }: { agentId: string; page?: PageLabel | undefined }) {
  return (
    <span className="card-source">
      <AgentName agentId={agentId} className="card-agent" />
      {page?.title && (
        <span className="page-title" title={page.title}>
          {page.title}
        </span>
      )}
      {page?.url && (
        <span className={`page-url muted${page.title ? ' with-title' : ''}`} title={page.url}>
          {page.url}
        </span>
      )}
    </span>
  );
}
