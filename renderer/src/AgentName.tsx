import { agentStyle } from './agent-colour.js';

/** An agent's name with its colour dot: the same colour on its cards, in the strip and in History. */
export function AgentName({ agentId, className }: { agentId: string; className?: string }) {
  return (
    <span className={`agent-name${className ? ` ${className}` : ''}`} style={agentStyle(agentId)}>
      <span className="agent-dot" aria-hidden />
      {agentId}
    </span>
  );
}
