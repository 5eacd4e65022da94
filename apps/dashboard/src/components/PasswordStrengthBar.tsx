import { Box, Group, Progress, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { passwordStrength, type StrengthLevel } from '../lib/password-strength';

const COLORS: Record<StrengthLevel, string> = { low: 'red', medium: 'yellow', high: 'teal' };

/** A bar under a new-password field: Low, Medium or High (docs/behaviour.md §9). */
export function PasswordStrengthBar({ password }: { password: string }) {
  const { t } = useTranslation();
  if (password.length === 0) return null;
  const { percent, level } = passwordStrength(password);
  const label = t(`passwordStrength.${level}`);
  return (
    <Box mt={6} data-testid="password-strength">
      <Progress
        value={Math.max(percent, 5)}
        color={COLORS[level]}
        size="sm"
        aria-label={t('passwordStrength.label')}
        aria-valuetext={label}
        transitionDuration={150}
      />
      <Group justify="space-between" mt={4}>
        <Text size="xs" c="dimmed">
          {t('passwordStrength.label')}
        </Text>
        <Text size="xs" fw={600} c={COLORS[level]}>
          {label}
        </Text>
      </Group>
    </Box>
  );
}
