import { AppShell, Burger, Container, Group, NavLink } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useMatches, useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { removeToken } from '../../api/auth-token';
import { currentUserQueryOptions } from '../../api/users';
import { Logo } from '../../components/Logo';
import { ForcedPasswordChange } from './ForcedPasswordChange';
import classes from './AppLayout.module.css';
import { navItemsFor } from './nav-items';
import { UserMenu } from './UserMenu';

/** The authenticated layout: top bar (links from 768 px up, a menu below), user menu, page. */
export function AppLayout() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const { data: user } = useQuery(currentUserQueryOptions());
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const navItems = navItemsFor(user);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // A page may take the whole width (its route's staticData.fullWidth): the lab overview on a wall display.
  const fullWidth = useMatches({ select: (matches) => matches.some((match) => match.staticData.fullWidth === true) });

  useEffect(close, [pathname, close]);

  const logout = () => {
    removeToken();
    void navigate({ to: '/login' }).then(() => queryClient.clear());
  };

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened, desktop: true } }}
      padding={0}
    >
      <AppShell.Header className={classes.header}>
        <Group h="100%" px={{ base: 'sm', sm: 'md' }} justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              className={classes.burger}
              aria-label={t('nav.openNavigation')}
            />
            <Link to="/" aria-label={t('brand')} className={classes.brandLink}>
              <Logo inverted />
            </Link>
            <Group component="nav" aria-label={t('nav.mainNavigation')} gap={4} visibleFrom="sm" ml="md" wrap="nowrap">
              {navItems.map((item) => (
                <Link key={item.to} to={item.to} activeOptions={{ exact: item.exact }} className={classes.navLink}>
                  <item.icon size={16} aria-hidden />
                  {t(item.label)}
                </Link>
              ))}
            </Group>
          </Group>
          <UserMenu user={user} onLogout={logout} />
        </Group>
      </AppShell.Header>

      {/* The phone menu: out of the accessibility tree and tab order while closed. */}
      <AppShell.Navbar
        p="sm"
        aria-label={t('nav.mainNavigation')}
        hiddenFrom="sm"
        style={opened ? undefined : { visibility: 'hidden' }}
      >
        {navItems.map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            activeOptions={{ exact: item.exact }}
            label={t(item.label)}
            leftSection={<item.icon size={18} aria-hidden />}
            active={pathname === item.to || pathname === `${item.to}/`}
          />
        ))}
      </AppShell.Navbar>

      <AppShell.Main className={classes.main}>
        <Container
          size="xl"
          fluid={fullWidth}
          px={{ base: 'sm', sm: 'md', lg: 'xl' }}
          py={{ base: 'md', sm: 'xl' }}
          data-full-width={fullWidth || undefined}
        >
          {/* The API refuses every other route until a default password is changed. */}
          {user?.must_change_password ? <ForcedPasswordChange user={user} /> : <Outlet />}
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
