import { createFileRoute } from '@tanstack/react-router';
import { ResearchListPage } from '../../../features/research/ResearchListPage';

export const Route = createFileRoute('/_layout/research/')({
  component: ResearchListPage,
});
