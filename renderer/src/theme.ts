import { useEffect, useState } from 'react';

export type Theme = 'system' | 'light' | 'dark';
export const THEMES: readonly Theme[] = ['system', 'light', 'dark'];
const KEY = 'aiti.theme';

function stored(): Theme {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

/** Light, dark, or as the system says (prefers-color-scheme); the choice is remembered (Settings picks it). */
export function useTheme(): [Theme, (theme: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(stored);
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);
  const choose = (value: Theme) => {
    try {
      localStorage.setItem(KEY, value);
    } catch {
      // storage disabled: the choice lasts as long as the tab
    }
    setTheme(value);
  };
  return [theme, choose];
}
