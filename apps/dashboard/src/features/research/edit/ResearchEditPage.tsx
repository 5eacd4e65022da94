import { Alert, Skeleton, Stack } from '@mantine/core';
import { IconAlertTriangle, IconChartLine, IconEye } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors';
import { researchQueryOptions } from '../../../api/research';
import { PageHeader } from '../../../components/PageHeader';
import { formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/notify';
import { ArchivedNotice } from '../../audit/archive';
import { ResearchAuditSection } from '../../audit/ResearchAuditSection';
import { BasicInfoSection } from './BasicInfoSection';
import { DrawingsSection } from './DrawingsSection';
import { EmailsSection } from './EmailsSection';
import { ThermoSection } from './ThermoSection';
import { UrlsSection } from './UrlsSection';
import { T0Section } from '../../criteria/T0Section';
import { ButtonLink } from '../../../components/ButtonLink';
import { FrozenNote, useFrozenReason } from '../../../components/frozen';
import { StateBadge } from '../../review/StateBadge';

/** Whether a failed research query means "there is no such research" (unknown or malformed id). */
function isMissingResearch(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 422 || error.status === 400);
}

export function ResearchEditPage({ researchId }: { researchId: string }) {
  const { t } = useTranslation();
  const { data: research, error, isPending } = useQuery(researchQueryOptions(researchId));
  // An approved test's record is frozen: its controls are disabled, the reason shown (the API refuses with it too).
  const frozen = useFrozenReason(research);

  if (isPending) {
    return (
      <Stack>
        <Skeleton height={36} width="50%" />
        <Skeleton height={260} radius="lg" />
        <Skeleton height={140} radius="lg" />
      </Stack>
    );
  }

  if (!research) {
    const missing = isMissingResearch(error);
    return (
      <Alert
        color={missing ? 'yellow' : 'red'}
        icon={<IconAlertTriangle aria-hidden />}
        title={missing ? t('research.notFoundTitle') : t('common.errorTitle')}
        data-testid="research-missing"
      >
        {missing ? t('research.notFoundText') : errorMessage(error)}
      </Alert>
    );
  }

  return (
    <>
      <PageHeader
        title={t('research.editTitle')}
        subtitle={`${research.name} · ${formatDateTime(research.start_at)} – ${formatDateTime(research.end_at)}`}
        actions={
          <>
            <StateBadge research={research} size="lg" />
            <ButtonLink
              to="/research/$researchId/view"
              params={{ researchId }}
              variant="light"
              leftSection={<IconEye size={16} aria-hidden />}
            >
              {t('common.preview')}
            </ButtonLink>
            <ButtonLink
              to="/research/$researchId/history"
              params={{ researchId }}
              variant="light"
              color="grape"
              leftSection={<IconChartLine size={16} aria-hidden />}
            >
              {t('link', { ns: 'history' })}
            </ButtonLink>
          </>
        }
      />
      <Stack gap="lg">
        <ArchivedNotice research={research} />
        <FrozenNote reason={frozen} />
        <BasicInfoSection research={research} frozen={frozen} />
        <T0Section research={research} frozen={frozen} />
        <UrlsSection researchId={researchId} frozen={frozen} />
        <ThermoSection researchId={researchId} frozen={frozen} />
        <DrawingsSection researchId={researchId} frozen={frozen} />
        <EmailsSection researchId={researchId} />
        <ResearchAuditSection researchId={researchId} />
      </Stack>
    </>
  );
}
