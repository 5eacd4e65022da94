import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import {
  IconCheck,
  IconChevronDown,
  IconHistory,
  IconLanguage,
  IconLogout,
  IconSettings,
  IconUsers,
} from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { User } from '../../api/users';
import { LANGUAGES, setLanguage, type Language } from '../../i18n';
import classes from './AppLayout.module.css';
import { displayName } from './nav-items';

// Each language by its own name, whatever the current one.
const LANGUAGE_NAMES = { pl: 'common.languagePl', en: 'common.languageEn' } as const satisfies Record<Language, string>;

export function UserMenu({ user, onLogout }: { user: User | undefined; onLogout: () => void }) {
  const { t, i18n } = useTranslation();
  const name = displayName(user, t('nav.user'));
  return (
    <Menu position="bottom-end" width={230} shadow="md" withinPortal>
      <Menu.Target>
        {/* The name shown on the button starts its accessible name (WCAG 2.5.3); the avatar is an icon, no initials to read. */}
        <UnstyledButton className={classes.userButton} aria-label={t('nav.userMenu', { name })} data-testid="user-menu">
          <Group gap={8} wrap="nowrap">
            <Avatar size={30} radius="xl" color="brand" variant="white" aria-hidden />
            <Text size="sm" fw={600} maw={160} truncate="end" visibleFrom="xs">
              {name}
            </Text>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {user ? (
          <Menu.Label>
            <Text size="xs" truncate="end">
              {user.email}
            </Text>
          </Menu.Label>
        ) : null}
        <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} aria-hidden />}>
          {t('nav.settings')}
        </Menu.Item>
        {user?.is_superuser ? (
          <Menu.Item component={Link} to="/admin" leftSection={<IconUsers size={16} aria-hidden />}>
            {t('nav.admin')}
          </Menu.Item>
        ) : null}
        {user?.is_superuser ? (
          <Menu.Item component={Link} to="/audit" leftSection={<IconHistory size={16} aria-hidden />}>
            {t('page.link', { ns: 'audit' })}
          </Menu.Item>
        ) : null}
        <Menu.Divider />
        <Menu.Label>
          <Group gap={6}>
            <IconLanguage size={14} aria-hidden />
            {t('common.language')}
          </Group>
        </Menu.Label>
        {LANGUAGES.map((language) => (
          <Menu.Item
            key={language}
            onClick={() => setLanguage(language)}
            lang={language}
            rightSection={i18n.language === language ? <IconCheck size={14} aria-hidden /> : null}
            aria-current={i18n.language === language ? 'true' : undefined}
          >
            {t(LANGUAGE_NAMES[language])}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item color="red" onClick={onLogout} leftSection={<IconLogout size={16} aria-hidden />}>
          {t('nav.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
