import type { Research } from '../../api/research-types';

/** Newest start first (docs/behaviour.md §2); ties by name so the order is stable. */
export function sortByStartDesc(list: readonly Research[]): Research[] {
  return [...list].sort((a, b) => {
    const diff = Date.parse(b.start_at) - Date.parse(a.start_at);
    return diff !== 0 && !Number.isNaN(diff) ? diff : a.name.localeCompare(b.name, 'pl');
  });
}
