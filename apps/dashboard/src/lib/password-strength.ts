export type StrengthLevel = 'low' | 'medium' | 'high';

export interface PasswordStrength {
  /** 0–100. */
  percent: number;
  level: StrengthLevel;
}

const CLASSES = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/];

/**
 * A simple strength estimate: length (up to 12 characters) counts for half, variety of character
 * classes for the other half; a password under the 8-character minimum stays Low.
 * Levels as the spec names them: Low under 33 %, Medium under 66 %, otherwise High.
 */
export function passwordStrength(password: string): PasswordStrength {
  if (password.length === 0) return { percent: 0, level: 'low' };
  const lengthScore = Math.min(password.length, 12) / 12;
  const classes = CLASSES.filter((re) => re.test(password)).length;
  let percent = Math.round(lengthScore * 50 + (classes / CLASSES.length) * 50);
  if (password.length < 8) percent = Math.min(percent, 32);
  return { percent, level: strengthLevel(percent) };
}

export function strengthLevel(percent: number): StrengthLevel {
  if (percent < 33) return 'low';
  if (percent < 66) return 'medium';
  return 'high';
}
