import { Paper, Skeleton, Tabs } from '@mantine/core';
import { IconAlertTriangle, IconLock, IconPalette, IconUser } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentUserQueryOptions } from '../../api/users';
import { PageHeader } from '../../components/PageHeader';
import { AppearanceTab } from './AppearanceTab';
import { DangerZoneTab } from './DangerZoneTab';
import { PasswordTab } from './PasswordTab';
import { ProfileTab } from './ProfileTab';

export function SettingsPage() {
  const { t } = useTranslation();
  const { data: user } = useQuery(currentUserQueryOptions());

  return (
    <>
      <PageHeader title={t('settings.title')} />
      <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'lg' }}>
        <Tabs defaultValue="profile" keepMounted={false}>
          <Tabs.List mb="lg" style={{ flexWrap: 'wrap' }}>
            <Tabs.Tab value="profile" leftSection={<IconUser size={16} aria-hidden />}>
              {t('settings.profileTab')}
            </Tabs.Tab>
            <Tabs.Tab value="password" leftSection={<IconLock size={16} aria-hidden />}>
              {t('settings.passwordTab')}
            </Tabs.Tab>
            <Tabs.Tab value="appearance" leftSection={<IconPalette size={16} aria-hidden />}>
              {t('settings.appearanceTab')}
            </Tabs.Tab>
            {user && !user.is_superuser ? (
              <Tabs.Tab value="danger" color="red" leftSection={<IconAlertTriangle size={16} aria-hidden />}>
                {t('settings.dangerTab')}
              </Tabs.Tab>
            ) : null}
          </Tabs.List>
          <Tabs.Panel value="profile">{user ? <ProfileTab user={user} /> : <Skeleton height={160} />}</Tabs.Panel>
          <Tabs.Panel value="password">
            <PasswordTab />
          </Tabs.Panel>
          <Tabs.Panel value="appearance">
            <AppearanceTab />
          </Tabs.Panel>
          {user && !user.is_superuser ? (
            <Tabs.Panel value="danger">
              <DangerZoneTab />
            </Tabs.Panel>
          ) : null}
        </Tabs>
      </Paper>
    </>
  );
}
