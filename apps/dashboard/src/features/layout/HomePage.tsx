import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconFlask, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentUserQueryOptions } from '../../api/users';

/** '/': the greeting and the welcome line (docs/behaviour.md §2), with shortcuts to the two main tasks. */
export function HomePage() {
  const { t } = useTranslation();
  const { data: user } = useQuery(currentUserQueryOptions());
  const name = user?.full_name?.trim() || user?.email || '';

  return (
    <Stack gap="xl">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 26, sm: 32 }} data-testid="greeting">
          {t('home.greeting', { name })}
        </Title>
        <Text size="lg" c="dimmed">
          {t('home.welcome')}{' '}
          <Text span fw={700} c="brand">
            {t('brand')}
          </Text>{' '}
          {t('home.streaming')}
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" maw={900}>
        <ShortcutCard
          to="/research"
          icon={<IconFlask size={22} />}
          title={t('nav.research')}
          text={t('home.researchCard')}
        />
        <ShortcutCard
          to="/research/add"
          icon={<IconPlus size={22} />}
          title={t('nav.addResearch')}
          text={t('home.addCard')}
        />
      </SimpleGrid>
    </Stack>
  );
}

function ShortcutCard({
  to,
  icon,
  title,
  text,
}: {
  to: '/research' | '/research/add';
  icon: ReactNode;
  title: string;
  text: string;
}) {
  return (
    <Card component={Link} to={to} withBorder radius="lg" padding="lg" shadow="xs">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Group gap="md" wrap="nowrap" align="flex-start">
          <ThemeIcon size={42} radius="md" variant="light" aria-hidden>
            {icon}
          </ThemeIcon>
          <Stack gap={2}>
            <Text fw={700}>{title}</Text>
            <Text size="sm" c="dimmed">
              {text}
            </Text>
          </Stack>
        </Group>
        <IconArrowRight size={18} aria-hidden />
      </Group>
    </Card>
  );
}
