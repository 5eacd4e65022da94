import type { ObservationDto } from '@furnace/api-client';
import { ActionIcon, Badge, Group, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatTestTime } from '@furnace/contracts';

/** The observations in time order, each "hh:mm:ss — kind: note"; staff also toggle visibility and delete. */
export function ObservationList({
  observations,
  onToggleVisible,
  onDelete,
  showVisibility = false,
}: {
  observations: readonly ObservationDto[];
  /** Staff reading: say which ones the clients see. */
  showVisibility?: boolean;
  onToggleVisible?: (observation: ObservationDto) => void;
  onDelete?: (observation: ObservationDto) => void;
}) {
  const { t } = useTranslation('criteria');
  if (observations.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="observations-empty">
        {t('observation.none')}
      </Text>
    );
  }
  return (
    <Stack gap={4} data-testid="observations">
      {observations.map((o) => (
        <Group
          key={o.id}
          justify="space-between"
          wrap="nowrap"
          gap="xs"
          data-testid="observation"
          data-kind={o.kind}
          data-visible={o.visible_to_clients}
        >
          <Text size="sm" miw={0}>
            <Text span ff="monospace" fw={600}>
              {formatTestTime(o.time)}
            </Text>{' '}
            — {t(`observation.${o.kind}`)}
            {o.note ? `: ${o.note}` : ''}
          </Text>
          {onToggleVisible || onDelete ? (
            <Group gap={6} wrap="nowrap">
              {onToggleVisible ? (
                <Tooltip label={t(o.visible_to_clients ? 'observation.makeHidden' : 'observation.makeVisible')}>
                  <Switch
                    size="xs"
                    checked={o.visible_to_clients}
                    onChange={() => onToggleVisible(o)}
                    aria-label={t(o.visible_to_clients ? 'observation.makeHidden' : 'observation.makeVisible')}
                  />
                </Tooltip>
              ) : null}
              {onDelete ? (
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  color="red"
                  aria-label={t('observation.remove')}
                  onClick={() => onDelete(o)}
                >
                  <IconTrash size={14} aria-hidden />
                </ActionIcon>
              ) : null}
            </Group>
          ) : showVisibility ? (
            <Badge size="xs" variant="light" color={o.visible_to_clients ? 'teal' : 'gray'}>
              {t(o.visible_to_clients ? 'observation.visible' : 'observation.hidden')}
            </Badge>
          ) : null}
        </Group>
      ))}
    </Stack>
  );
}
