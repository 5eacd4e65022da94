import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { signUp } from '../../api/users';
import { AuthCard } from '../../components/AuthCard';
import { notifyError } from '../../lib/notify';
import { settle } from '../../lib/settle';
import type { SignupValues } from '../../lib/validation';
import { SignUpForm } from './SignUpForm';

export function SignUpPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signup = useMutation({
    mutationFn: (values: SignupValues) =>
      signUp({ full_name: values.full_name.trim(), email: values.email.trim(), password: values.password }),
    onSuccess: () => navigate({ to: '/login' }),
    onError: (error) => notifyError(error),
  });

  return (
    <AuthCard title={t('auth.signupTitle')}>
      <SignUpForm onSubmit={(values) => settle(signup.mutateAsync(values))} />
    </AuthCard>
  );
}
