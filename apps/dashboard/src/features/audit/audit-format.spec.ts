import { i18n } from '../../i18n';
import { type AuditEntry, describeChange, entityLabel, actionLabel, markersChange } from './audit-format';

const entry = (fields: Partial<AuditEntry>): AuditEntry => ({
  id: '1',
  at: '2026-03-01T08:00:00Z',
  actor: 'staff@example.com',
  research_id: 'r-1',
  research_name: 'Drzwi EI 60',
  entity: 'research',
  entity_id: 'r-1',
  action: 'update',
  before: null,
  after: null,
  ...fields,
});

const marker = (thermo_id: number, item_x: number) => ({ thermo_id, name: `T${thermo_id}`, type_name: 'Tmax', item_x });

describe('an audit entry, readably', () => {
  const t = i18n.getFixedT('pl', 'audit');

  it('names each changed field with its value before and after: dates in Warsaw time, yes and no, a blank as —', () => {
    const lines = describeChange(
      entry({
        before: { name: 'Przed', classification_to_clients: true, start_at: '2026-03-01T08:00:00.000Z', sponsor: null },
        after: { name: 'Po', classification_to_clients: false, start_at: '2026-03-01T09:30:00.000Z', sponsor: 'ACME' },
      }),
      t,
    );
    expect(lines.map((l) => [l.label, l.before, l.after])).toEqual([
      ['Nazwa', 'Przed', 'Po'],
      ['Klienci widzą klasyfikację', 'tak', 'nie'],
      ['Początek', '01.03.2026, 09:00:00', '01.03.2026, 10:30:00'],
      ['Zleceniodawca', '—', 'ACME'],
    ]);
  });

  it('leaves out what did not change, and shows a field it does not know by its name', () => {
    const lines = describeChange(
      entry({
        entity: 'review',
        action: 'approve',
        before: { revision: 1, same: 'x' },
        after: { revision: 2, same: 'x' },
      }),
      t,
    );
    expect(lines.map((l) => [l.label, l.before, l.after])).toEqual([['revision', '1', '2']]);
    expect([entityLabel('review', t), actionLabel('approve', t)]).toEqual(['review', 'approve']);
    expect([entityLabel('thermo_config', t), actionLabel('unarchive', t)]).toEqual([
      'Konfiguracja termopar',
      'przywrócono z archiwum',
    ]);
  });

  it('shows a creation by what names the new row, a deletion by what named the removed one', () => {
    const created = describeChange(
      entry({
        action: 'create',
        after: {
          name: 'Drzwi',
          start_at: '2026-03-01T08:00:00.000Z',
          end_at: '2026-03-01T12:00:00.000Z',
          standard: 'EN_1634_1',
        },
      }),
      t,
    );
    expect(created.map((l) => [l.label, l.before, l.after])).toEqual([
      ['Nazwa', null, 'Drzwi'],
      ['Początek', null, '01.03.2026, 09:00:00'],
      ['Koniec', null, '01.03.2026, 13:00:00'],
    ]);
    const deleted = describeChange(
      entry({
        entity: 'drawing',
        action: 'delete',
        before: { name: 'plan.pdf', mime: 'application/pdf', size: 1_240_000, sha256: 'ab'.repeat(32) },
      }),
      t,
    );
    expect(deleted.map((l) => [l.label, l.before, l.after])).toEqual([
      ['Nazwa', 'plan.pdf', null],
      ['Rozmiar', '1.2 MB', null],
    ]);
  });

  it("tells a config's files by name, size and digest, and which thermocouples were added, removed and changed", () => {
    const before = {
      config_file: { name: 'a.txt', size: 2048, sha256: '0123456789abcdef'.repeat(4) },
      markers: [marker(1, 100), marker(2, 300), marker(3, 500)],
    };
    const after = {
      config_file: { name: 'b.txt', size: 1024, sha256: 'fedcba9876543210'.repeat(4) },
      markers: [marker(1, 110), marker(3, 500), marker(4, 200)],
    };
    const lines = describeChange(entry({ entity: 'thermo_config', before, after }), t);
    expect(lines.map((l) => [l.label, l.before, l.after, l.note])).toEqual([
      ['Plik konfiguracji', 'a.txt · 2 kB · 0123456789ab…', 'b.txt · 1 kB · fedcba987654…', undefined],
      ['Termopary', 'termopary: 3', 'termopary: 3', 'dodane: T4; usunięte: T2; zmienione: T1'],
    ]);
    expect(markersChange(before.markers, before.markers, t)).toBe('bez zmian');
  });

  it('reads in English too', () => {
    const en = i18n.getFixedT('en', 'audit');
    expect(
      describeChange(entry({ entity: 'user', before: { is_superuser: false }, after: { is_superuser: true } }), en).map(
        (l) => [l.label, l.before, l.after],
      ),
    ).toEqual([['Superuser', 'no', 'yes']]);
  });
});
