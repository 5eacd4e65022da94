import { Group, Paper, Stack, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';

/** A titled card of a page: a heading, an optional action at its right, the content. */
export function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={id}>
      <Group justify="space-between" mb="md" gap="xs">
        <Title order={2} fz="lg" id={id}>
          {title}
        </Title>
        {action}
      </Group>
      <Stack gap="sm">{children}</Stack>
    </Paper>
  );
}
