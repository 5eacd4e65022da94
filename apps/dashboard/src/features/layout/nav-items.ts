import { IconBuildingFactory2, IconFlame, IconFlask, IconHome, IconPlus, type Icon } from '@tabler/icons-react';
import type { Translation } from '@furnace/text';

export interface NavItem {
  to: '/' | '/research' | '/research/add' | '/lab' | '/furnaces';
  label: `nav.${keyof Translation['nav']}`;
  icon: Icon;
  exact: boolean;
  /** Shown to superusers only (the page's route refuses the others too). */
  superuser?: boolean;
}

/** The top bar's links (docs/behaviour.md §2), also listed in the mobile menu. */
const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', label: 'nav.home', icon: IconHome, exact: true },
  { to: '/research', label: 'nav.research', icon: IconFlask, exact: true },
  { to: '/research/add', label: 'nav.addResearch', icon: IconPlus, exact: true },
  { to: '/lab', label: 'nav.lab', icon: IconBuildingFactory2, exact: true },
  { to: '/furnaces', label: 'nav.furnaces', icon: IconFlame, exact: true },
];

/** The links a user is shown: the superusers' pages only to superusers. */
export function navItemsFor(user: { is_superuser?: boolean } | undefined): readonly NavItem[] {
  return NAV_ITEMS.filter((item) => !item.superuser || user?.is_superuser === true);
}

/** The name the user menu shows: the full name, else 'User'. */
export function displayName(user: { full_name?: string | null } | undefined, fallback: string): string {
  const name = user?.full_name?.trim();
  return name ? name : fallback;
}
