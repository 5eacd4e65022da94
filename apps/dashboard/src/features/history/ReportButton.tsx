import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconFileTypePdf } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../lib/notify';
import { downloadHistory } from './history-api';

/** 'Raport PDF': the test's data sheet for the lab's report, in Polish or English (docs/behaviour.md §11). */
export function ReportButton({ researchId }: { researchId: string }) {
  const { t } = useTranslation('history');
  const download = useMutation({
    mutationFn: (lang: 'pl' | 'en') => downloadHistory(researchId, { format: 'pdf', lang }),
    onError: (error) => notifyError(error, t('report.error')),
  });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="light" leftSection={<IconFileTypePdf size={16} aria-hidden />} rightSection={<IconChevronDown size={14} aria-hidden />} loading={download.isPending}>
          {t('report.download')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => download.mutate('pl')}>{t('report.pl')}</Menu.Item>
        <Menu.Item onClick={() => download.mutate('en')}>{t('report.en')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
