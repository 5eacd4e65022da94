import { DEFAULT_TEST_PROFILE } from '@furnace/criteria';
import { csvDialect, csvLine } from './csv';
import {
  channelHeader,
  exportCells,
  exportHeader,
  type ExportLayout,
  type ExportMeta,
  hms,
  metaRows,
  wallClockText,
  warsawWallClock,
} from './export-format';

const layout: ExportLayout = {
  channels: 3,
  labels: new Map([
    [1, { name: 'T7', types: ['Tśr i Tmax'] }],
    [3, { name: 'Łącznik ż', types: ['Tmax', 'TDin'] }],
  ]),
  categories: ['Tśr i Tmax'],
};

describe('the columns of the history exports', () => {
  it('names each thermocouple with its name, type and unit; a channel without a marker keeps a plain header', () => {
    expect(channelHeader(7, { name: 'T7', types: ['Tśr i Tmax'] })).toBe('T7 – Tśr i Tmax [°C]');
    expect(exportHeader(layout, 'pl')).toEqual([
      'Czas [s]',
      'Czas [min]',
      'Czas od zapłonu',
      'Data i godzina (Europe/Warsaw)',
      'Promieniowanie [kW/m²]',
      'Ciśnienie [Pa]',
      'Temperatura pieca [°C]',
      'T7 – Tśr i Tmax [°C]',
      'thermo_2_c',
      'Łącznik ż – Tmax / TDin [°C]',
      'Tśr i Tmax – max [°C]',
      'Tśr i Tmax – średnia [°C]',
      'Tśr i Tmax – przyrost max ponad T0 [K]',
      'Tśr i Tmax – przyrost średniej ponad T0 [K]',
      'Krzywa normowa [°C]',
      'd_e [%]',
      'Kanały poza zakresem',
      'Obserwacje',
    ]);
  });

  it('writes the headers in English when asked for English; the thermocouples keep their names', () => {
    expect(exportHeader(layout, 'en')).toEqual([
      'Time [s]',
      'Time [min]',
      'Time since ignition',
      'Date and time (Europe/Warsaw)',
      'Radiation [kW/m²]',
      'Pressure [Pa]',
      'Furnace temperature [°C]',
      'T7 – Tśr i Tmax [°C]',
      'thermo_2_c',
      'Łącznik ż – Tmax / TDin [°C]',
      'Tśr i Tmax – max [°C]',
      'Tśr i Tmax – mean [°C]',
      'Tśr i Tmax – max rise above T0 [K]',
      'Tśr i Tmax – mean rise above T0 [K]',
      'Standard curve [°C]',
      'd_e [%]',
      'Channels out of range',
      'Observations',
    ]);
  });

  it('writes a frame as numbers with a decimal comma, its rises above T0, and empty cells where nothing counts', () => {
    const cells = exportCells(
      {
        time: 90,
        wallClock: new Date(Date.UTC(2030, 0, 1, 11, 1, 30)),
        radiance: 1.25,
        pressure: null,
        pk: 512.5,
        thermocouples: Float64Array.from([40.5, Number.NaN, 44]),
        categories: [{ max: 44, mean: 42.25 }],
        t0: 20.125,
        curve: 480.123456,
        dE: -2.34567,
        faults: [2],
        observations: ['cotton_pad', 'note'],
      },
      layout,
    );
    expect(csvLine(cells, csvDialect('comma'))).toBe(
      '90;1,5;00:01:30;2030-01-01 11:01:30;1,25;;512,5;40,5;;44;44;42,25;23,875;22,125;480,123;-2,346;2;cotton_pad note\r\n',
    );
    const none = exportCells({ ...undefinedFrame(), categories: [{ max: null, mean: null }] }, layout);
    expect(csvLine(none, csvDialect('point'))).toBe('-30,-0.5,-00:00:30,,,,,,,,,,,,20,,,\r\n');
  });

  it('gives hh:mm:ss since ignition, negative before it, hours past a day', () => {
    expect(hms(0)).toBe('00:00:00');
    expect(hms(3723.9)).toBe('01:02:03');
    expect(hms(-30)).toBe('-00:00:30');
    expect(hms(90_000)).toBe('25:00:00');
  });

  it('reads Warsaw local time across both daylight-saving changes', () => {
    const at = (iso: string) => wallClockText(warsawWallClock(new Date(iso)));
    // 2030-03-31: 02:00 CET becomes 03:00 CEST (01:00 UTC).
    expect(at('2030-03-31T00:59:59Z')).toBe('2030-03-31 01:59:59');
    expect(at('2030-03-31T01:00:00Z')).toBe('2030-03-31 03:00:00');
    // 2030-10-27: 03:00 CEST becomes 02:00 CET (01:00 UTC): 02:30 happens twice.
    expect(at('2030-10-27T00:30:00Z')).toBe('2030-10-27 02:30:00');
    expect(at('2030-10-27T01:30:00Z')).toBe('2030-10-27 02:30:00');
    expect(at('2030-01-01T10:00:12.500Z')).toBe('2030-01-01 11:00:12');
    expect(at('2030-07-01T10:00:12Z')).toBe('2030-07-01 12:00:12');
  });

  it('lists the research, profile, ignition, T0 and the excluded and failed thermocouples in the metadata', () => {
    const rows = metaRows(meta, 'pl');
    const text = rows.map((cells) => csvLine(cells, csvDialect('comma'))).join('');
    expect(text).toBe(
      [
        'Badanie;Drzwi EI2 60',
        'Identyfikator;r-1',
        'Norma;EN 1634-1 — drzwi lub zamknięcie (I2)',
        'Krzywa nagrzewania;Krzywa standardowa ISO 834',
        'Podstawa kryteriów;przyrost ponad T0',
        'Planowany czas [min];60',
        'Ciśnienie docelowe [Pa];',
        'Tolerancja ciśnienia [Pa];',
        'Zapłon (Europe/Warsaw);2030-10-27 02:30:00',
        'T0 [°C];20,333;średnia z 60 s przed zapłonem',
        'Termopara wyłączona;T3 (kanał 3);od 00:40:00;odpadła',
        'Termopara uszkodzona;kanał 2;poza zakresem od 00:30:00 do 01:00:00;odczyty: 181',
        '',
      ].join('\r\n'),
    );
    expect(rows[9]![1]).toBe(20.333);
  });

  it('writes the metadata in English when asked for English; the reasons staff typed stay as typed', () => {
    const text = metaRows({ ...meta, t0: { value: 20.5, source: 'override' } }, 'en')
      .map((cells) => csvLine(cells, csvDialect('point')))
      .join('');
    expect(text).toBe(
      [
        'Test,Drzwi EI2 60',
        'Identifier,r-1',
        'Standard,EN 1634-1 — door or shutter (I2)',
        'Heating curve,ISO 834 standard curve',
        'Criteria basis,rise above T0',
        'Planned duration [min],60',
        'Pressure target [Pa],',
        'Pressure tolerance [Pa],',
        'Ignition (Europe/Warsaw),2030-10-27 02:30:00',
        'T0 [°C],20.5,set by staff',
        'Thermocouple excluded,T3 (channel 3),from 00:40:00,odpadła',
        'Thermocouple failed,channel 2,out of range from 00:30:00 to 01:00:00,readings: 181',
        '',
      ].join('\r\n'),
    );
  });
});

const meta = {
  research: { id: 'r-1', name: 'Drzwi EI2 60' },
  profile: { ...DEFAULT_TEST_PROFILE, standard: 'EN_1634_1', insulation: 'I2', planned_duration_min: 60 },
  ignitionAt: new Date('2030-10-27T01:30:00Z'),
  t0: { value: 20.3333333, source: 'auto' },
  excluded: [{ thermoId: 3, name: 'T3', fromTime: 2400, reason: 'odpadła' }],
  failed: [{ thermoId: 2, name: null, firstTime: 1800, lastTime: 3600, frames: 181 }],
} satisfies ExportMeta;

function undefinedFrame() {
  return {
    time: -30,
    wallClock: null,
    radiance: null,
    pressure: null,
    pk: null,
    thermocouples: null,
    categories: [],
    t0: null,
    curve: 20,
    dE: null,
    faults: null,
    observations: [],
  };
}
