import { createFileRoute } from '@tanstack/react-router';
import { HistoryPage } from '../../../../features/history/HistoryPage';

// Staff: the temperature history of a research (charts, exceedances, CSV). Code-split with ECharts.
export const Route = createFileRoute('/_layout/research/$researchId/history')({
  component: HistoryRoute,
});

function HistoryRoute() {
  const { researchId } = Route.useParams();
  return <HistoryPage key={researchId} researchId={researchId} />;
}
