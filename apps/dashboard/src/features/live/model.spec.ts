import { categoriesOf, overallStats, toggleCategory } from './categories';
import { nextPhaseChangeIn, researchPhase } from './research-phase';

describe('categories', () => {
  const markers = [
    { thermo_id: 1, type_name: 'Tśr i Tmax', color_hex: '#E53935' },
    { thermo_id: 2, type_name: 'Tmax', color_hex: '#1E88E5' },
    { thermo_id: 3, type_name: 'Tśr i Tmax', color_hex: '#000000' },
  ];

  it('groups markers by type_name in order of first appearance, with the first marker’s colour', () => {
    expect(categoriesOf(markers)).toEqual([
      { name: 'Tśr i Tmax', color: '#E53935' },
      { name: 'Tmax', color: '#1E88E5' },
    ]);
  });

  it('a toggle flips one category and leaves the set it was given alone', () => {
    const none = new Set<string>();
    const hidden = toggleCategory(none, 'Tmax');
    expect([...hidden]).toEqual(['Tmax']);
    expect(none.size).toBe(0);
    expect([...toggleCategory(hidden, 'Tmax')]).toEqual([]);
  });

  it('overall max and mean over every thermocouple with a reading', () => {
    expect(overallStats(markers, [100, 50, null])).toEqual({ max: 100, mean: 75 });
    expect(overallStats(markers, null)).toEqual({ max: null, mean: null });
  });
});

describe('research phase', () => {
  const research = { start_at: '2025-11-22T08:00:00.000Z', end_at: '2025-11-22T11:00:00.000Z' };
  const at = (iso: string) => Date.parse(iso);

  it('not started before start_at, live until end_at, ended after', () => {
    expect(researchPhase(research, at('2025-11-22T07:59:59.999Z'))).toBe('notStarted');
    expect(researchPhase(research, at('2025-11-22T08:00:00.000Z'))).toBe('live');
    expect(researchPhase(research, at('2025-11-22T11:00:00.000Z'))).toBe('live');
    expect(researchPhase(research, at('2025-11-22T11:00:00.001Z'))).toBe('ended');
  });

  it('knows when the phase changes next', () => {
    expect(nextPhaseChangeIn(research, at('2025-11-22T07:59:00.000Z'))).toBe(60_000);
    expect(
      researchPhase(
        research,
        at('2025-11-22T10:59:00.000Z') + (nextPhaseChangeIn(research, at('2025-11-22T10:59:00.000Z')) ?? 0),
      ),
    ).toBe('ended');
    expect(nextPhaseChangeIn(research, at('2025-11-22T12:00:00.000Z'))).toBeNull();
  });
});
