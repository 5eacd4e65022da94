import { Button, Center, Stack, Text, Title } from '@mantine/core';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../lib/notify';

/** A route that failed to load: what went wrong and a retry. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const { t } = useTranslation();
  return (
    <Center mih="50vh" p="md">
      <Stack align="center" gap="xs">
        <Title order={1} fz={26}>
          {t('common.errorTitle')}
        </Title>
        <Text c="dimmed" ta="center">
          {errorMessage(error)}
        </Text>
        <Button variant="outline" onClick={reset} mt="sm">
          {t('common.retry')}
        </Button>
      </Stack>
    </Center>
  );
}
