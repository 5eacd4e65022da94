import { useCallback } from 'react';
import type { FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ValidationKey } from '../i18n';
import { CATALOGUES } from '@furnace/text';

function isValidationKey(value: string): value is ValidationKey {
  return value.startsWith('validation.') && value.slice('validation.'.length) in CATALOGUES.pl.translation.validation;
}

/** Translates a field's validation message (an i18n key from lib/validation.ts). */
export function useErrorText(): (error: FieldError | undefined) => string | undefined {
  const { t } = useTranslation();
  return useCallback(
    (error) => {
      const message = error?.message;
      if (!message) return undefined;
      return isValidationKey(message) ? t(message) : message;
    },
    [t],
  );
}
