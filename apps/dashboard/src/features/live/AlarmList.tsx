import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AlarmDto } from '@furnace/api-client';
import { formatDateTime } from '../../lib/dates';
import { notifyError } from '../../lib/notify';
import { acknowledgeAlarm, alarmsQuery } from '../stream/alarms-api';
import { liveKeys } from '../stream/live-keys';
import { STAFF_AUTH } from './StaffLiveGate';

/** At most this many past (cleared) alarms are listed under the open ones. */
const PAST_SHOWN = 5;

/**
 * The research's alarms on the staff live view and the monitor (docs/behaviour.md §17): the open ones first, each
 * with its "acknowledge" button until someone did, then the last few cleared. Refetched on every ALARM message of the
 * page's live stream.
 */
export function AlarmList({ researchId }: { researchId: string }) {
  const { t } = useTranslation('live');
  const queryClient = useQueryClient();
  const { data: alarms = [] } = useQuery(alarmsQuery(STAFF_AUTH, researchId));
  const acknowledge = useMutation({
    mutationFn: (id: string) => acknowledgeAlarm(STAFF_AUTH, id),
    onError: (error) => notifyError(error, t('alarms.failed')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: liveKeys.alarms(STAFF_AUTH, researchId) }),
  });
  const open = alarms.filter((a) => a.cleared_at === null);
  const past = alarms.filter((a) => a.cleared_at !== null).slice(0, PAST_SHOWN);
  const name = (a: AlarmDto) => `${t(`alarms.kinds.${a.kind}`)}${a.subject ? ` — ${a.subject}` : ''}`;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={t('alarms.title')} data-testid="alarms">
      <Group gap="xs" mb="xs">
        <Text fw={700} size="sm">
          {t('alarms.title')}
        </Text>
        {open.length > 0 ? (
          <Badge color="red" autoContrast>
            {open.length}
          </Badge>
        ) : null}
      </Group>
      {alarms.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('alarms.none')}
        </Text>
      ) : (
        <Stack gap="xs">
          {open.map((a) => (
            <Group key={a.id} justify="space-between" wrap="nowrap" gap="sm" data-testid="alarm-open">
              <Stack gap={0} miw={0}>
                <Text size="sm" fw={700} c={a.acknowledged_at ? undefined : 'red.8'}>
                  {name(a)}
                </Text>
                <Text size="xs" c="dimmed">
                  {a.acknowledged_at
                    ? t('alarms.acknowledged', { by: a.acknowledged_by, at: formatDateTime(a.acknowledged_at) })
                    : t('alarms.raisedAt', { at: formatDateTime(a.raised_at) })}
                </Text>
              </Stack>
              {a.acknowledged_at ? null : (
                <Button
                  size="xs"
                  color="red"
                  autoContrast
                  loading={acknowledge.isPending && acknowledge.variables === a.id}
                  onClick={() => acknowledge.mutate(a.id)}
                >
                  {t('alarms.acknowledge')}
                </Button>
              )}
            </Group>
          ))}
          {past.map((a) => (
            <Stack key={a.id} gap={0} data-testid="alarm-past">
              <Text size="sm">{name(a)}</Text>
              <Text size="xs" c="dimmed">
                {t('alarms.cleared', { at: formatDateTime(a.cleared_at!) })}
              </Text>
            </Stack>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
