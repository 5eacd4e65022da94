import { createFileRoute } from '@tanstack/react-router';
import { ResearchEditPage } from '../../../../features/research/edit/ResearchEditPage';

export const Route = createFileRoute('/_layout/research/$researchId/edit')({
  component: EditRoute,
});

function EditRoute() {
  const { researchId } = Route.useParams();
  return <ResearchEditPage key={researchId} researchId={researchId} />;
}
