import { Group, Pagination, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const LABELS = { first: 'firstPage', previous: 'previousPage', next: 'nextPage', last: 'lastPage' } as const;

/** The pages of an audit trail, with how many entries match. */
export function AuditPagination({
  page,
  count,
  pageSize,
  onChange,
}: {
  page: number;
  count: number;
  pageSize: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation('audit');
  const total = Math.max(1, Math.ceil(count / pageSize));
  return (
    <Group justify="space-between" mt="xs">
      <Text size="sm" c="dimmed">
        {t('count', { count })}
      </Text>
      {total > 1 ? (
        <Pagination
          size="sm"
          total={total}
          value={Math.min(page, total)}
          onChange={onChange}
          aria-label={t('pagination')}
          siblings={1}
          getItemProps={(item) => ({ 'aria-current': item === Math.min(page, total) ? 'page' : undefined })}
          getControlProps={(control) => ({ 'aria-label': t(LABELS[control]) })}
        />
      ) : null}
    </Group>
  );
}
