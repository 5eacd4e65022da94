import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n';
import { notifyError } from '../../lib/notify';
import { downloadHistory, type HistoryExport } from '../stream/history-api';

/**
 * 'Pobierz dane': the readings as CSV (for Excel with Polish settings by default, with a decimal point,
 * or with the metadata block above) or as an XLSX workbook with the criteria and thermocouple sheets,
 * their words in the language the dashboard is shown in.
 */
export function DownloadMenu({ researchId }: { researchId: string }) {
  const { t } = useTranslation('history');
  const lang = currentLanguage();
  const download = useMutation({
    mutationFn: (file: HistoryExport) => downloadHistory(researchId, file),
    onError: (error) => notifyError(error, t('download.error')),
  });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          leftSection={<IconDownload size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          loading={download.isPending}
        >
          {t('download.button')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('download.csv')}</Menu.Label>
        <Menu.Item onClick={() => download.mutate({ format: 'csv', decimal: 'comma', meta: false, lang })}>
          {t('download.comma')}
        </Menu.Item>
        <Menu.Item onClick={() => download.mutate({ format: 'csv', decimal: 'point', meta: false, lang })}>
          {t('download.point')}
        </Menu.Item>
        <Menu.Item onClick={() => download.mutate({ format: 'csv', decimal: 'comma', meta: true, lang })}>
          {t('download.meta')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Label>{t('download.xlsxLabel')}</Menu.Label>
        <Menu.Item onClick={() => download.mutate({ format: 'xlsx', lang })}>{t('download.xlsx')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
