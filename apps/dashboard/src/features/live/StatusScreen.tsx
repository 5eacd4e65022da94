import { Button, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconClockHour4, IconFlag, IconLock, IconQuestionMark } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type StatusKind = 'notStarted' | 'ended' | 'notFound' | 'denied' | 'error';

const ICONS = {
  notStarted: { icon: IconClockHour4, color: 'brand' },
  ended: { icon: IconFlag, color: 'gray' },
  notFound: { icon: IconQuestionMark, color: 'orange' },
  denied: { icon: IconLock, color: 'red' },
  error: { icon: IconAlertTriangle, color: 'red' },
} as const;

/** A status screen of docs/behaviour.md §2 ("Public research status screens"): nothing of the research is shown. */
export function StatusScreen({
  kind,
  onRetry,
  children,
}: {
  kind: StatusKind;
  onRetry?: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('live');
  const { icon: Icon, color } = ICONS[kind];
  return (
    <Center mih="60vh" p="md">
      <Paper
        withBorder
        radius="lg"
        p={{ base: 'lg', sm: 'xl' }}
        maw={520}
        w="100%"
        data-testid="live-status"
        data-status={kind}
      >
        <Stack align="center" gap="sm" ta="center">
          <ThemeIcon size={64} radius="xl" color={color} variant="light" aria-hidden>
            <Icon size={36} stroke={1.6} />
          </ThemeIcon>
          <Title order={1} fz={{ base: 22, sm: 26 }}>
            {t(`status.${kind}Title`)}
          </Title>
          <Text c="dimmed">{t(`status.${kind}Text`)}</Text>
          {onRetry ? (
            <Button variant="light" onClick={onRetry} mt="xs">
              {t('status.retry')}
            </Button>
          ) : null}
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
