import { passwordStrength, strengthLevel } from './password-strength';

describe('password strength', () => {
  it('names the levels as the spec does: Low under 33 %, Medium under 66 %, otherwise High', () => {
    expect(strengthLevel(0)).toBe('low');
    expect(strengthLevel(32)).toBe('low');
    expect(strengthLevel(33)).toBe('medium');
    expect(strengthLevel(65)).toBe('medium');
    expect(strengthLevel(66)).toBe('high');
  });

  it('keeps anything under 8 characters Low and rates length and variety', () => {
    expect(passwordStrength('Ab1!xyz').level).toBe('low');
    expect(passwordStrength('abcdefgh').level).toBe('medium');
    expect(passwordStrength('Furnace-Test-2025').level).toBe('high');
    expect(passwordStrength('').percent).toBe(0);
  });
});
