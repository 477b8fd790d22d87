import { createContext, useContext, useEffect, useState } from 'react';
import { en, type Messages } from './en.js';
import { zhCN } from './zh-CN.js';
import { zhTW } from './zh-TW.js';

/** The window's languages: every string it shows is in one dictionary per language (en.ts is the reference). */
export const LANGUAGES = { en, 'zh-CN': zhCN, 'zh-TW': zhTW } satisfies Record<string, Messages>;
export type Language = keyof typeof LANGUAGES;
/** what the human picked: a language, or the system's */
export type LanguageChoice = Language | 'system';

const KEY = 'aiti.language';

/** Chinese written in traditional characters: Taiwan, Hong Kong, Macau, or the script named (zh-Hant). */
const TRADITIONAL = /^zh-(hant|tw|hk|mo)\b/;

/** The system's language as the window speaks it: 繁體中文 or 简体中文 for Chinese, English otherwise. */
export function systemLanguage(languages: readonly string[] = navigator.languages ?? [navigator.language]): Language {
  for (const tag of languages) {
    const lower = tag.toLowerCase();
    if (TRADITIONAL.test(lower)) return 'zh-TW';
    if (lower.startsWith('zh')) return 'zh-CN';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

export function storedChoice(): LanguageChoice {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'en' || value === 'zh-CN' || value === 'zh-TW' ? value : 'system';
  } catch {
    return 'system';
  }
}

export function storeChoice(choice: LanguageChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // storage disabled: the choice lasts as long as the tab
  }
}

let current: { language: Language; messages: Messages } = { language: 'en', messages: en };

/**
 * The strings of the language in use, for code outside components (answer checks, labels); components read
 * them with useT(), which also re-renders them when the language changes.
 */
export function t(): Messages {
  return current.messages;
}

/** The BCP 47 tag dates and numbers are formatted with. */
export function locale(): string {
  return current.language;
}

export function setLanguage(language: Language): void {
  current = { language, messages: LANGUAGES[language] };
  document.documentElement.lang = language;
}

export const LanguageContext = createContext<Language>('en');

/** The strings of the language in use; the component re-renders when it changes. */
export function useT(): Messages {
  useContext(LanguageContext);
  return t();
}

/**
 * The language in use and the human's choice: the system's by default, or the one picked (kept in this
 * browser). The module's strings switch before the tree renders, so t() and useT() agree.
 */
export function useLanguage(): { language: Language; choice: LanguageChoice; choose(choice: LanguageChoice): void } {
  const [choice, setChoice] = useState<LanguageChoice>(storedChoice);
  const [system, setSystem] = useState(() => systemLanguage());
  useEffect(() => {
    const onChange = () => setSystem(systemLanguage());
    window.addEventListener('languagechange', onChange);
    return () => window.removeEventListener('languagechange', onChange);
  }, []);
  const language = choice === 'system' ? system : choice;
  if (current.language !== language) setLanguage(language);
  return {
    language,
    choice,
    choose: (next) => {
      storeChoice(next);
      setChoice(next);
    },
  };
}
