import { IconFlask, IconHome, IconPlus, type Icon } from '@tabler/icons-react';
import type { Translation } from '@furnace/text';

export interface NavItem {
  to: '/' | '/research' | '/research/add';
  label: `nav.${keyof Translation['nav']}`;
  icon: Icon;
  exact: boolean;
}

/** The top bar's links (docs/behaviour.md §2), also listed in the mobile menu. */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', label: 'nav.home', icon: IconHome, exact: true },
  { to: '/research', label: 'nav.research', icon: IconFlask, exact: true },
  { to: '/research/add', label: 'nav.addResearch', icon: IconPlus, exact: true },
];

/** The name the user menu shows: the full name, else 'User'. */
export function displayName(user: { full_name?: string | null } | undefined, fallback: string): string {
  const name = user?.full_name?.trim();
  return name ? name : fallback;
}
