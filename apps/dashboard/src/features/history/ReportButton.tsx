import { Button, Menu } from '@mantine/core';
import { IconArchive, IconCertificate, IconChevronDown, IconFileTypePdf } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../lib/notify';
import { downloadHistory } from '../stream/history-api';

/**
 * 'Raport PDF': the test's data sheet for the lab's report; 'Klasyfikacja PDF': the classification
 * report it rests on. Each in Polish or English (docs/behaviour.md §11).
 */
export function ReportButton({
  researchId,
  document = 'report',
}: {
  researchId: string;
  document?: 'report' | 'classification';
}) {
  const { t } = useTranslation('history');
  const classification = document === 'classification';
  const download = useMutation({
    mutationFn: (lang: 'pl' | 'en') =>
      downloadHistory(researchId, { format: classification ? 'classification' : 'pdf', lang }),
    onError: (error) => notifyError(error, t(classification ? 'report.classificationError' : 'report.error')),
  });
  const Icon = classification ? IconCertificate : IconFileTypePdf;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="light"
          leftSection={<Icon size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          loading={download.isPending}
        >
          {t(classification ? 'report.classification' : 'report.download')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => download.mutate('pl')}>{t('report.pl')}</Menu.Item>
        <Menu.Item onClick={() => download.mutate('en')}>{t('report.en')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** 'Archiwum (.zip)': the test's whole record with its manifest, to keep or to import elsewhere (docs/behaviour.md §14). */
export function ArchiveButton({ researchId }: { researchId: string }) {
  const { t } = useTranslation('history');
  const download = useMutation({
    mutationFn: () => downloadHistory(researchId, { format: 'zip' }),
    onError: (error) => notifyError(error, t('archive.error')),
  });
  return (
    <Button
      variant="light"
      color="gray"
      leftSection={<IconArchive size={16} aria-hidden />}
      loading={download.isPending}
      onClick={() => download.mutate()}
    >
      {t('archive.download')}
    </Button>
  );
}
