import { createFileRoute } from '@tanstack/react-router';
import { ResearchCreatePage } from '../../../features/research/ResearchCreatePage';

export const Route = createFileRoute('/_layout/research/add')({
  component: ResearchCreatePage,
});
