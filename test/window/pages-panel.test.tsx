// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PagesPanel } from '../../renderer/src/panels/PagesPanel.js';

afterEach(cleanup);

describe('the pages panel', () => {
  it('with no page yet, shows how to connect one with this bridge’s address, ready to copy', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<PagesPanel pages={[]} heldOrigins={[]} allow={() => Promise.resolve()} />);
    const help = screen.getByText('Connect a page').closest('details');
    expect(help?.open).toBe(true);
    const script = `${window.location.origin}/aiti/page.js`;
    expect(screen.getByText(`<script src="${script}"></script>`)).toBeTruthy();
    const bookmarklet = screen.getByText(/^javascript:/);
    expect(bookmarklet.textContent).toContain(`s.src='${script}'`);
    fireEvent.click(screen.getAllByRole('button', { name: 'Copy' })[2] as HTMLElement);
    expect(writeText).toHaveBeenCalledWith(bookmarklet.textContent);
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
  });

  it('once pages are connected, keeps the help folded away', () => {
    render(
      <PagesPanel
        pages={[
          {
            instanceId: 'i1',
            frameId: 'main',
            pageId: 'p1',
            url: 'http://localhost:5173/',
            origin: 'http://localhost:5173',
            frameworks: ['react'],
            active: true,
            operable: true,
            legacy: false,
            lastSeen: new Date().toISOString(),
          },
        ]}
        heldOrigins={[]}
        allow={() => Promise.resolve()}
      />,
    );
    expect(screen.getByText('Connect a page').closest('details')?.open).toBe(false);
    expect(screen.getByText('localhost:5173')).toBeTruthy();
  });
});
