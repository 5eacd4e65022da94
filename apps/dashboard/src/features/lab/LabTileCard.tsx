import { Anchor, type AnchorProps, Badge, Card, Divider, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { createLink, type LinkComponent } from '@tanstack/react-router';
import type { LabTile } from '@furnace/contracts';
import type { ComponentPropsWithRef, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/dates';
import { daqSilent, elapsedSeconds, formatSpan, frameAgeSeconds, oneDecimal } from './lab-format';
import classes from './LabPage.module.css';

type TextAnchorProps = AnchorProps & Omit<ComponentPropsWithRef<'a'>, keyof AnchorProps>;

function TextAnchor(props: TextAnchorProps) {
  return <Anchor component="a" {...props} />;
}

const CreatedAnchorLink = createLink(TextAnchor);

/** A Mantine Anchor that is a router link, with the router's typed `to` and `params`. */
const AnchorLink: LinkComponent<typeof TextAnchor> = (props) => <CreatedAnchorLink preload="intent" {...props} />;

/** One line of a tile: a label and its value, the value coloured when it needs attention. */
function Row({
  label,
  children,
  tone,
  testId,
}: {
  label: string;
  children: ReactNode;
  tone?: 'bad' | 'warn' | 'ok';
  testId?: string;
}) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text
        size="sm"
        fw={600}
        ta="right"
        c={tone === 'bad' ? 'red' : tone === 'warn' ? 'orange' : tone === 'ok' ? 'teal' : undefined}
        className={classes.value}
        data-testid={testId}
      >
        {children}
      </Text>
    </Group>
  );
}

/** A furnace's tile (docs/behaviour.md §18); `serverNow` ticks every second by the server's clock. */
export function LabTileCard({ tile, serverNow }: { tile: LabTile; serverNow: number }) {
  const { t } = useTranslation('lab');
  const none = t('overview.notKnown');
  const { running } = tile;
  const silent = daqSilent(tile, serverNow);
  const age = frameAgeSeconds(tile, serverNow);
  const elapsed = elapsedSeconds(tile, serverNow);
  const d = tile.deviation;
  const hot = tile.hottest;
  const riseShare = hot && hot.rise_k !== null && hot.limit_k ? Math.min(100, (hot.rise_k / hot.limit_k) * 100) : null;
  const forecastSoon = tile.forecast !== null && tile.forecast.eta_s < 300;

  return (
    <Card
      withBorder
      radius="lg"
      padding="lg"
      className={classes.tile}
      data-testid="lab-tile"
      data-furnace={tile.furnace.code}
      data-state={running ? 'running' : 'idle'}
      aria-label={tile.furnace.name}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start" mb="xs">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Title order={2} fz={{ base: 20, lg: 22 }} className={classes.name}>
            {tile.furnace.name}
          </Title>
          <Text size="xs" c="dimmed" ff="monospace">
            {tile.furnace.code}
          </Text>
        </Stack>
        <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
          {tile.alarms.open > 0 ? (
            <Badge color="red" variant="filled" leftSection={<IconAlertTriangle size={12} aria-hidden />}>
              {tile.alarms.open}
            </Badge>
          ) : null}
          <Badge color={running ? 'teal' : 'gray'} variant={running ? 'filled' : 'light'} data-testid="lab-tile-state">
            {running ? t('overview.running') : t('overview.idle')}
          </Badge>
        </Group>
      </Group>

      {running ? (
        <Stack gap={6}>
          <AnchorLink
            to="/research/$researchId/view"
            params={{ researchId: running.research_id }}
            fw={700}
            className={classes.name}
            data-testid="lab-tile-test"
          >
            {running.name}
          </AnchorLink>
          <Text
            fz={{ base: 28, lg: 34 }}
            fw={700}
            ff="monospace"
            lh={1.1}
            data-testid="lab-tile-elapsed"
            aria-label={t('overview.elapsed')}
          >
            {elapsed === null ? none : formatSpan(elapsed)}
          </Text>
          <Divider my={4} />
          <Row
            label={t('overview.lastFrame')}
            tone={silent ? 'bad' : age === null ? undefined : 'ok'}
            testId="lab-tile-frame"
          >
            {age === null ? t('overview.noFrame') : t('overview.lastFrameAgo', { seconds: Math.floor(age) })}
          </Row>
          <Row
            label={t('overview.deviation')}
            tone={d?.ok === false ? 'bad' : d?.ok ? 'ok' : undefined}
            testId="lab-tile-deviation"
          >
            {d === null || d.d_e === null
              ? none
              : d.tolerance === null
                ? t('overview.deviationNoTolerance', { value: d.d_e.toFixed(1) })
                : t('overview.deviationValue', { value: d.d_e.toFixed(1), tolerance: d.tolerance.toFixed(1) })}
          </Row>
          <Row
            label={t('overview.rise')}
            tone={
              riseShare !== null && riseShare >= 100
                ? 'bad'
                : riseShare !== null && riseShare >= 80
                  ? 'warn'
                  : undefined
            }
            testId="lab-tile-rise"
          >
            {hot === null
              ? none
              : hot.limit_k === null
                ? t('overview.riseNoLimit', { category: hot.type_name, rise: oneDecimal(hot.rise_k, none) })
                : t('overview.riseValue', {
                    category: hot.type_name,
                    rise: oneDecimal(hot.rise_k, none),
                    limit: oneDecimal(hot.limit_k, none),
                  })}
          </Row>
          {riseShare !== null ? (
            <Progress
              value={riseShare}
              size="sm"
              color={riseShare >= 100 ? 'red' : riseShare >= 80 ? 'orange' : 'teal'}
              aria-label={t('overview.rise')}
            />
          ) : null}
          <Row label={t('overview.forecast')} tone={forecastSoon ? 'bad' : undefined} testId="lab-tile-forecast">
            {tile.forecast === null
              ? t('overview.forecastNone')
              : t('overview.forecastValue', {
                  criterion: t(`criterion.${tile.forecast.criterion as 'I_mean'}`, { ns: 'criteria' }),
                  minutes: Math.max(0, Math.ceil(tile.forecast.eta_s / 60)),
                })}
          </Row>
          <Row label={t('overview.alarms')} tone={tile.alarms.open > 0 ? 'bad' : undefined} testId="lab-tile-alarms">
            {tile.alarms.open}
          </Row>
          <Row label={t('overview.viewers')} testId="lab-tile-viewers">
            {tile.viewers}
          </Row>
        </Stack>
      ) : (
        <Stack gap={6}>
          <Divider my={4} />
          <Text size="sm" c="dimmed">
            {t('overview.next')}
          </Text>
          {tile.next ? (
            <>
              <AnchorLink
                to="/research/$researchId/edit"
                params={{ researchId: tile.next.research_id }}
                fw={600}
                className={classes.name}
                data-testid="lab-tile-next"
              >
                {tile.next.name}
              </AnchorLink>
              <Text size="sm">{formatDateTime(tile.next.start_at)}</Text>
            </>
          ) : (
            <Text size="sm" data-testid="lab-tile-next">
              {t('overview.nextNone')}
            </Text>
          )}
        </Stack>
      )}
    </Card>
  );
}
