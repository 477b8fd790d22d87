import { useEffect, useState } from 'react';

export type Theme = 'system' | 'light' | 'dark';
const KEY = 'aiti.theme';
const ORDER: Theme[] = ['system', 'light', 'dark'];

function stored(): Theme {
  const value = localStorage.getItem(KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

/** Light, dark, or as the system says (prefers-color-scheme); the choice is remembered. */
export function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>(stored);
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);
  const next = () =>
    setTheme((current) => {
      const value = ORDER[(ORDER.indexOf(current) + 1) % ORDER.length] ?? 'system';
      localStorage.setItem(KEY, value);
      return value;
    });
  return [theme, next];
}
