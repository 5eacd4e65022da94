import { themeStorageManager, toColorScheme, toThemeChoice } from './color-scheme';

describe('theme storage', () => {
  it("stores the choice under 'theme' as system, light or dark (default light)", () => {
    const manager = themeStorageManager();
    expect(manager.get('light')).toBe('light');
    manager.set('auto');
    expect(localStorage.getItem('theme')).toBe('system');
    expect(manager.get('light')).toBe('auto');
    manager.set('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    localStorage.setItem('theme', 'purple');
    expect(manager.get('light')).toBe('light');
  });

  it('maps between the spec names and Mantine', () => {
    expect(toThemeChoice('auto')).toBe('system');
    expect(toColorScheme('system')).toBe('auto');
    expect(toColorScheme(null)).toBeNull();
  });
});
