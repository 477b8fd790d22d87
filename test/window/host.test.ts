// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiBase, onComposeRequest, onOpenAskRequest, resolveToken, type AitiHost } from '../../renderer/src/host.js';

beforeEach(() => {
  sessionStorage.clear();
  delete window.aiti;
  window.history.replaceState(null, '', '/aiti/ui/');
});
afterEach(() => {
  delete window.aiti;
});

describe('where the window gets its token', () => {
  it('from #token=: kept for reloads and removed from the address bar, other hash parts stay', async () => {
    window.history.replaceState(null, '', '/aiti/ui/#token=s3cret&compose');
    expect(await resolveToken()).toBe('s3cret');
    expect(window.location.href).not.toContain('s3cret');
    expect(window.location.hash).toBe('#compose');
    // a reload: no hash any more, the tab still knows the token
    window.history.replaceState(null, '', '/aiti/ui/');
    expect(await resolveToken()).toBe('s3cret');
  });

  it('from the desktop preload, before anything in the URL', async () => {
    window.aiti = { token: async () => 'from-preload' };
    window.history.replaceState(null, '', '/aiti/ui/#token=from-url');
    expect(await resolveToken()).toBe('from-preload');
  });

  it('nothing anywhere: no token', async () => {
    expect(await resolveToken()).toBeUndefined();
  });

  it('the API lives beside the window: /aiti/ui/ → /aiti/', () => {
    expect(new URL(apiBase()).pathname).toBe('/aiti/');
  });
});

describe('how a host opens the composer or a card', () => {
  it('the preload, an aiti:compose event and a #compose hash all reach the composer', () => {
    let fire: ((request: { to: string }) => void) | undefined;
    const host: AitiHost = {
      token: () => 't',
      onCompose: (listener) => {
        fire = listener;
        return () => (fire = undefined);
      },
    };
    window.aiti = host;
    const seen: string[] = [];
    window.history.replaceState(null, '', '/aiti/ui/#compose=cursor');
    const stop = onComposeRequest((to) => seen.push(to));
    fire?.({ to: 'all' });
    window.dispatchEvent(new CustomEvent('aiti:compose', { detail: { to: 'claude' } }));
    window.dispatchEvent(new Event('aiti:compose'));
    expect(seen).toEqual(['cursor', 'all', 'claude', 'all']);
    expect(window.location.hash).toBe('');
    stop();
    expect(fire).toBeUndefined();
  });

  it('a clicked desktop notification names the ask to show', () => {
    let fire: ((request: { askId: string }) => void) | undefined;
    window.aiti = { token: () => 't', onOpenAsk: (listener) => void (fire = listener) };
    const seen: string[] = [];
    onOpenAskRequest((askId) => seen.push(askId));
    fire?.({ askId: 'ask-7' });
    expect(seen).toEqual(['ask-7']);
  });
});
