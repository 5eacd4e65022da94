import { createFileRoute } from '@tanstack/react-router';
import { requireLogin } from '../app/guards';
import { AppLayout } from '../features/layout/AppLayout';

export const Route = createFileRoute('/_layout')({
  beforeLoad: requireLogin,
  component: AppLayout,
});
