import type { ResearchDto } from '@furnace/api-client';
import { Badge } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const COLOR: Record<ResearchDto['state'], string> = {
  planned: 'gray',
  running: 'blue',
  ended: 'yellow',
  reviewed: 'cyan',
  approved: 'green',
};

/** The test's state (docs/behaviour.md, "The permanent record"); an approved one with its revision and a lock. */
export function StateBadge({
  research,
  size = 'sm',
}: {
  research: Pick<ResearchDto, 'state' | 'approved_revision'>;
  size?: 'xs' | 'sm' | 'md' | 'lg';
}) {
  const { t } = useTranslation('review');
  const approved = research.state === 'approved' && research.approved_revision !== null;
  return (
    <Badge
      size={size}
      variant="light"
      color={COLOR[research.state]}
      leftSection={approved ? <IconLock size={12} aria-hidden /> : undefined}
      style={{ flexShrink: 0 }}
      data-testid="state-badge"
      data-state={research.state}
    >
      {approved ? t('state.approvedAs', { revision: research.approved_revision }) : t(`state.${research.state}`)}
    </Badge>
  );
}
