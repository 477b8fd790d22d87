import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { LanguageContext, useLanguage } from './i18n/index.js';
import './styles.css';

/** The window in the language the human reads: every component re-renders when it changes. */
function Root() {
  const { language, choice, choose } = useLanguage();
  return (
    <LanguageContext.Provider value={language}>
      <App language={choice} onLanguage={choose} />
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
