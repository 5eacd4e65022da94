import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { resetPassword } from '../../api/users';
import { AuthCard } from '../../components/AuthCard';
import { notifyError, notifySuccess } from '../../lib/notify';
import { settle } from '../../lib/settle';
import type { ResetValues } from '../../lib/validation';
import { ResetPasswordForm } from './ResetPasswordForm';

export function ResetPasswordPage({ token }: { token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const reset = useMutation({
    mutationFn: (values: ResetValues) => resetPassword(token, values.new_password),
    onSuccess: async () => {
      notifySuccess(t('auth.passwordUpdated'));
      await navigate({ to: '/login' });
    },
    onError: (error) => notifyError(error),
  });

  return (
    <AuthCard title={t('auth.resetTitle')} description={t('auth.resetText')}>
      <ResetPasswordForm onSubmit={(values) => settle(reset.mutateAsync(values))} />
    </AuthCard>
  );
}
