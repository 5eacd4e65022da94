import { Box, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ConnectionStatus } from '../stream/live-socket';

/** Spec §2: red = 0 disconnected, yellow = 1 connected without data, green = 2 receiving data. */
const STATUS_KEYS = { 0: 'connection.disconnected', 1: 'connection.connected', 2: 'connection.receiving' } as const;

const STATUS_COLORS: Record<ConnectionStatus, string> = { 0: '#e53935', 1: '#fdd835', 2: '#43a047' };

export function ConnectionIndicator({ status, size = 'sm' }: { status: ConnectionStatus; size?: 'sm' | 'lg' }) {
  const { t } = useTranslation('live');
  const dot = size === 'lg' ? 18 : 12;
  return (
    <Group gap={8} wrap="nowrap" role="status" aria-live="polite" data-testid="connection-status" data-status={status}>
      <Box
        aria-hidden
        w={dot}
        h={dot}
        style={{
          borderRadius: '50%',
          background: STATUS_COLORS[status],
          boxShadow: `0 0 0 3px ${STATUS_COLORS[status]}33`,
          flex: 'none',
        }}
      />
      <Text size={size === 'lg' ? 'lg' : 'sm'} c="dimmed">
        {t(STATUS_KEYS[status])}
      </Text>
    </Group>
  );
}
