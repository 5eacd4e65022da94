import { PasswordInput } from '@mantine/core';
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';

/** Mantine's PasswordInput with its show/hide button labelled in the interface language. */
export function PasswordField(props: ComponentProps<typeof PasswordInput>) {
  const { t } = useTranslation();
  return <PasswordInput visibilityToggleButtonProps={{ 'aria-label': t('common.togglePassword') }} {...props} />;
}
