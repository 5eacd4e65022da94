import { createFileRoute } from '@tanstack/react-router';
import { HomePage } from '../../features/layout/HomePage';

export const Route = createFileRoute('/_layout/')({
  component: HomePage,
});
