// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentView } from '../../bridge/protocol/index.js';
import { AgentsPanel } from '../../renderer/src/panels/AgentsPanel.js';

afterEach(cleanup);

const claude: AgentView = {
  agentId: 'claude',
  client: 'claude-code 2.0',
  online: true,
  transport: 'stdio',
  channels: ['channel', 'inbox'],
  unread: 0,
  lastSeen: new Date().toISOString(),
};

describe('the agents panel', () => {
  it('says nobody’s state is known while the window is reconnecting, instead of showing them online', () => {
    render(<AgentsPanel agents={[claude]} live={false} onSelect={() => undefined} />);
    expect(screen.getByRole('region', { name: 'agents' }).textContent).toContain('status unknown');
    expect(screen.getByTitle('unknown')).toBeTruthy();
    expect(screen.queryByTitle('online')).toBeNull();
  });

  it('keeps unread badges after a restart: counts come from the journal, even before the agent is back', () => {
    render(
      <AgentsPanel
        agents={[{ ...claude, unread: 0 }]}
        inbox={{ claude: { pending: 2, delivered: 0, consumed: 1 }, cursor: { pending: 3, delivered: 0, consumed: 0 } }}
        onSelect={() => undefined}
      />,
    );
    expect(screen.getByTitle('2 unread').textContent).toBe('2');
    expect(screen.getByTitle('3 unread').textContent).toBe('3');
    expect(screen.getByRole('button', { name: /cursor/ }).textContent).toContain('messages wait');
  });
});
