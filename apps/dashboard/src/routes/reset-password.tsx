import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { redirectIfLoggedIn } from '../app/guards';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';

export const Route = createFileRoute('/reset-password')({
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
  beforeLoad: redirectIfLoggedIn,
  component: ResetPasswordRoute,
});

function ResetPasswordRoute() {
  const { token } = Route.useSearch();
  return <ResetPasswordPage token={token ?? ''} />;
}
