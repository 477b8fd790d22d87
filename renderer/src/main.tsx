import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { PairPage } from './device/PairPage.js';
import { LanguageContext, useLanguage } from './i18n/index.js';
import './styles.css';
import './device/phone.css';

/** `/aiti/ui/pair#code=…` is the pairing step of a device (device/PairPage.tsx); every other path is the window. */
const pairing = /\/ui\/pair\/?$/.test(window.location.pathname);

/** The window in the language the human reads: every component re-renders when it changes. */
function Root() {
  const { language, choice, choose } = useLanguage();
  return (
    <LanguageContext.Provider value={language}>
      {pairing ? <PairPage /> : <App language={choice} onLanguage={choose} />}
    </LanguageContext.Provider>
  );
}

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  );
