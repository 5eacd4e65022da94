import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { recoverPassword } from '../../api/users';
import { AuthCard } from '../../components/AuthCard';
import { currentLanguage } from '../../i18n';
import { notifyError, notifySuccess } from '../../lib/notify';
import type { RecoverValues } from '../../lib/validation';
import { RecoverPasswordForm } from './RecoverPasswordForm';

export function RecoverPasswordPage() {
  const { t } = useTranslation();
  const recover = useMutation({
    mutationFn: (values: RecoverValues) => recoverPassword(values.email.trim(), currentLanguage()),
    onSuccess: () => notifySuccess(t('auth.recoverSent')),
    onError: (error) => notifyError(error),
  });

  return (
    <AuthCard title={t('auth.recoverTitle')} description={t('auth.recoverText')}>
      <RecoverPasswordForm
        onSubmit={(values) =>
          recover.mutateAsync(values).then(
            () => true,
            () => false,
          )
        }
      />
    </AuthCard>
  );
}
