import { Alert, Button, Card, Code, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { unassignedQueryOptions, type Furnace } from '../../api/furnaces';
import { formatDateTime } from '../../lib/dates';
import { AttachDialog, type AttachTarget } from './AttachDialog';

/**
 * The furnaces' unassigned readings (docs/behaviour.md §15.1): for each furnace that holds some, how many and their
 * ranges, each with *Attach to test…*. Staff's, as the API's routes are.
 */
export function UnassignedReadings({ furnaces }: { furnaces: readonly Furnace[] }) {
  const { t } = useTranslation('lab');
  const results = useQueries({ queries: furnaces.map((f) => unassignedQueryOptions(f.id)) });
  const [target, setTarget] = useState<AttachTarget | null>(null);
  const pending = results.some((r) => r.isPending);
  const holding = furnaces
    .map((furnace, i) => ({ furnace, result: results[i] }))
    .filter(({ result }) => result?.isError || (result?.data?.frames ?? 0) > 0);

  return (
    <Stack gap="sm" mt="xl" component="section" aria-labelledby="unassigned-title" data-testid="unassigned">
      <div>
        <Title order={2} size="h3" id="unassigned-title">
          {t('unassigned.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('unassigned.hint')}
        </Text>
      </div>
      {pending && holding.length === 0 ? <Skeleton height={72} radius="lg" /> : null}
      {!pending && holding.length === 0 ? (
        <Text c="dimmed" data-testid="unassigned-none">
          {t('unassigned.none')}
        </Text>
      ) : null}
      {holding.map(({ furnace, result }) =>
        result?.isError ? (
          <Alert key={furnace.id} color="red">
            {t('unassigned.loadError', { name: furnace.name })}
          </Alert>
        ) : (
          <Card
            key={furnace.id}
            withBorder
            radius="lg"
            padding="md"
            data-testid="unassigned-furnace"
            data-furnace={furnace.code}
          >
            <Group gap={8} mb="xs">
              <Text fw={600}>{furnace.name}</Text>
              <Code>{furnace.code}</Code>
              <Text size="sm" c="dimmed" data-testid="unassigned-total">
                {t('unassigned.furnaceTotal', {
                  count: result?.data?.frames ?? 0,
                  ranges: result?.data?.data.length ?? 0,
                })}
              </Text>
            </Group>
            <Stack gap="xs">
              {result?.data?.data.map((range) => {
                const from = formatDateTime(range.from);
                const to = formatDateTime(range.to);
                return (
                  <Paper
                    key={range.from}
                    withBorder
                    radius="md"
                    px="sm"
                    py="xs"
                    data-testid="unassigned-range"
                    data-from={range.from}
                  >
                    <Group justify="space-between" gap="xs">
                      <Group gap="md" style={{ minWidth: 0 }}>
                        <Text size="sm" ff="monospace" style={{ fontVariantNumeric: 'tabular-nums' }}>
                          {t('unassigned.range', { from, to })}
                        </Text>
                        <Text size="sm" c="dimmed" data-testid="unassigned-frames">
                          {t('unassigned.frames')}: {range.frames}
                        </Text>
                      </Group>
                      <Button
                        size="xs"
                        variant="light"
                        leftSection={<IconLink size={14} aria-hidden />}
                        aria-label={t('unassigned.attachRange', { from, to })}
                        onClick={() => setTarget({ furnace, range })}
                      >
                        {t('unassigned.attach')}
                      </Button>
                    </Group>
                  </Paper>
                );
              })}
            </Stack>
          </Card>
        ),
      )}
      <AttachDialog target={target} onClose={() => setTarget(null)} />
    </Stack>
  );
}
