import { createFileRoute } from '@tanstack/react-router';
import { SignUpPage } from '../features/auth/SignUpPage';

// Open to visitors: a signed-up account is inactive until a superuser activates it (SIGNUP=approval,
// the default), so signing up grants nothing by itself; /login links here unless SIGNUP=off.
export const Route = createFileRoute('/signup')({
  component: SignUpPage,
});
