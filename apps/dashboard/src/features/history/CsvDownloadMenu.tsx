import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../lib/notify';
import { downloadHistoryCsv, type CsvDecimal } from './history-api';

/** 'Pobierz CSV': the raw readings, for Excel with Polish settings (default) or with a decimal point. */
export function CsvDownloadMenu({ researchId }: { researchId: string }) {
  const { t } = useTranslation('history');
  const download = useMutation({
    mutationFn: (decimal: CsvDecimal) => downloadHistoryCsv(researchId, decimal),
    onError: (error) => notifyError(error, t('csv.error')),
  });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button leftSection={<IconDownload size={16} aria-hidden />} rightSection={<IconChevronDown size={14} aria-hidden />} loading={download.isPending}>
          {t('csv.download')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => download.mutate('comma')}>{t('csv.comma')}</Menu.Item>
        <Menu.Item onClick={() => download.mutate('point')}>{t('csv.point')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
