import { Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from './ButtonLink';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="xs" data-testid="not-found">
        <Text fz={96} fw={800} c="brand" lh={1}>
          {t('notFound.code')}
        </Text>
        <Title order={1} fz={32}>
          {t('notFound.title')}
        </Title>
        <Text c="dimmed" ta="center">
          {t('notFound.text')}
        </Text>
        <ButtonLink to="/" variant="outline" mt="md">
          {t('notFound.back')}
        </ButtonLink>
      </Stack>
    </Center>
  );
}
