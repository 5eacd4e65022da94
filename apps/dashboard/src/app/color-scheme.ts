import type { MantineColorScheme, MantineColorSchemeManager } from '@mantine/core';

/*
 * The theme choice is stored under 'theme' as 'system', 'light' or 'dark' (docs/behaviour.md §9; default light).
 * Mantine calls "system" 'auto'; this manager translates between the two.
 */
const THEME_STORAGE_KEY = 'theme';
export type ThemeChoice = 'system' | 'light' | 'dark';

export function toThemeChoice(scheme: MantineColorScheme): ThemeChoice {
  return scheme === 'auto' ? 'system' : scheme;
}

export function toColorScheme(value: string | null | undefined): MantineColorScheme | null {
  if (value === 'system') return 'auto';
  if (value === 'light' || value === 'dark') return value;
  return null;
}

export function themeStorageManager(key = THEME_STORAGE_KEY): MantineColorSchemeManager {
  let listener: ((event: StorageEvent) => void) | null = null;
  return {
    get: (defaultValue) => {
      try {
        return toColorScheme(localStorage.getItem(key)) ?? defaultValue;
      } catch {
        return defaultValue;
      }
    },
    set: (value) => {
      try {
        localStorage.setItem(key, toThemeChoice(value));
      } catch {
        // Private mode: the choice lasts until reload.
      }
    },
    subscribe: (onUpdate) => {
      listener = (event) => {
        if (event.storageArea === localStorage && event.key === key) {
          const scheme = toColorScheme(event.newValue);
          if (scheme) onUpdate(scheme);
        }
      };
      window.addEventListener('storage', listener);
    },
    unsubscribe: () => {
      if (listener) window.removeEventListener('storage', listener);
      listener = null;
    },
    clear: () => {
      try {
        localStorage.removeItem(key);
      } catch {
        // Nothing stored.
      }
    },
  };
}
