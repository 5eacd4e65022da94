import {
  THERMO_CONFIG_FIELDS,
  THERMO_CONFIG_HEADER,
  formatThermoConfig,
  formatThermoConfigErrors,
  parseThermoConfig,
  thermoMarkerSchema,
  zoneApplies,
  type ThermoConfigError,
  type ThermoConfigResult,
  type ThermoMarker,
} from './thermo-config';

// --- test data builders -------------------------------------------------------------------------

type Row = Record<Exclude<(typeof THERMO_CONFIG_FIELDS)[number], 'zone'>, string | number> & { zone?: string };

/** The 11 fields every file has; a line of a file written before zones existed. */
const ELEVEN_FIELDS = THERMO_CONFIG_FIELDS.filter((field) => field !== 'zone');
const ELEVEN_FIELD_HEADER = ELEVEN_FIELDS.join(';');

function newRow(overrides: Partial<Row> = {}): Row {
  return {
    thermo_id: 1,
    name: 'T1',
    type_name: 'Tmax',
    color_hex: '#E53935',
    item_x: 412,
    item_y: 388,
    item_size: 14,
    label_x: 430,
    label_y: 372,
    label_width: 64,
    label_height: 24,
    ...overrides,
  };
}

/** A line of 11 fields, or of 12 when the overrides give a zone. */
const row = (overrides: Partial<Row> = {}, separator = ';'): string =>
  ('zone' in overrides ? THERMO_CONFIG_FIELDS : ELEVEN_FIELDS)
    .map((field) => String(newRow(overrides)[field]))
    .join(separator);

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const withBom = (bytes: Uint8Array): Uint8Array => new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);

/** Windows-1250 bytes, written by hand for the few Polish letters the tests use. */
const CP1250: Record<string, number> = { ś: 0x9c, ą: 0xb9, ć: 0xe6, ł: 0xb3, ż: 0xbf, ó: 0xf3, ę: 0xea };
function cp1250(text: string): Uint8Array {
  return new Uint8Array(
    [...text].map((ch) => {
      const code = ch.charCodeAt(0);
      if (code < 0x80) return code;
      const byte = CP1250[ch];
      if (byte === undefined) throw new Error(`no Windows-1250 byte for ${ch} in this test`);
      return byte;
    }),
  );
}

function markersOf(result: ThermoConfigResult): ThermoMarker[] {
  if (!result.ok) throw new Error(`expected a valid file, got:\n${formatThermoConfigErrors(result.errors)}`);
  return result.markers;
}
function errorsOf(result: ThermoConfigResult): ThermoConfigError[] {
  if (result.ok) throw new Error(`expected errors, got ${result.markers.length} markers`);
  return result.errors;
}

// A config as a Polish Windows tool writes it: header, comments, CRLF, Polish type names and names.
const POLISH_CONFIG = [
  THERMO_CONFIG_HEADER,
  '# próbka: drzwi stalowe, strona nienagrzewana',
  row({ thermo_id: 1, name: 'środek', type_name: 'Tśr i Tmax' }),
  '',
  row({ thermo_id: 2, name: 'ościeżnica lewa', type_name: 'Tmax ościeżnicy', color_hex: '#1e88e5' }),
  row({ thermo_id: 3, name: 'kątownik górny', type_name: 'T kątowników', item_x: 10, label_x: 30 }) + ' # łącznik',
  '',
].join('\r\n');

const POLISH_MARKERS: ThermoMarker[] = [
  { ...newRowMarker(), thermo_id: 1, name: 'środek', type_name: 'Tśr i Tmax' },
  { ...newRowMarker(), thermo_id: 2, name: 'ościeżnica lewa', type_name: 'Tmax ościeżnicy', color_hex: '#1E88E5' },
  { ...newRowMarker(), thermo_id: 3, name: 'kątownik górny', type_name: 'T kątowników', item_x: 10, label_x: 30 },
];
function newRowMarker(): ThermoMarker {
  return {
    thermo_id: 1,
    name: 'T1',
    type_name: 'Tmax',
    color_hex: '#E53935',
    item_x: 412,
    item_y: 388,
    item_size: 14,
    label_x: 430,
    label_y: 372,
    label_width: 64,
    label_height: 24,
    zone: null,
  };
}

// --- encodings ----------------------------------------------------------------------------------

describe('parseThermoConfig: encodings', () => {
  it('reads a Windows-1250 file with Polish type names', () => {
    const bytes = cp1250(POLISH_CONFIG);
    // Really Windows-1250: 'ś' is the single byte 0x9C, which is not valid UTF-8.
    expect(bytes).toContain(0x9c);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();

    const result = parseThermoConfig(bytes);
    expect(result.ok && result.encoding).toBe('windows-1250');
    expect(markersOf(result)).toEqual(POLISH_MARKERS);
  });

  it('reads the same file in UTF-8 with a BOM', () => {
    const result = parseThermoConfig(withBom(utf8(POLISH_CONFIG)));
    expect(result.ok && result.encoding).toBe('utf-8');
    expect(markersOf(result)).toEqual(POLISH_MARKERS);
  });

  it('reads the same file in UTF-8 without a BOM, with LF or CR line endings', () => {
    expect(markersOf(parseThermoConfig(utf8(POLISH_CONFIG.replaceAll('\r\n', '\n'))))).toEqual(POLISH_MARKERS);
    expect(markersOf(parseThermoConfig(utf8(POLISH_CONFIG.replaceAll('\r\n', '\r'))))).toEqual(POLISH_MARKERS);
  });

  it('accepts type names in decomposed Unicode (as macOS writes them)', () => {
    const nfd = row({ type_name: 'T kątowników'.normalize('NFD') });
    expect(markersOf(parseThermoConfig(utf8(nfd)))[0]?.type_name).toBe('T kątowników');
  });

  it('refuses UTF-16, binary files and a BOM followed by broken UTF-8', () => {
    expect(errorsOf(parseThermoConfig(new Uint8Array([0xff, 0xfe, 0x31, 0x00])))).toEqual([
      { line: 0, field: null, message: 'the file is UTF-16; save it as UTF-8 or Windows-1250' },
    ]);
    expect(errorsOf(parseThermoConfig(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00])))).toEqual(
      [{ line: 0, field: null, message: 'the file is not a text file (it contains NUL bytes)' }],
    );
    expect(errorsOf(parseThermoConfig(withBom(cp1250(row({ name: 'środek' })))))).toEqual([
      { line: 0, field: null, message: 'the file starts with a UTF-8 byte order mark but is not valid UTF-8' },
    ]);
  });
});

// --- format -------------------------------------------------------------------------------------

describe('parseThermoConfig: format', () => {
  it('reads the example line of the README', () => {
    const text =
      'thermo_id;name;type_name;color_hex;item_x;item_y;item_size;label_x;label_y;label_width;label_height\n1;T1;Tśr i Tmax;#E53935;412;388;14;430;372;64;24\n';
    expect(markersOf(parseThermoConfig(utf8(text)))).toEqual([{ ...newRowMarker(), type_name: 'Tśr i Tmax' }]);
  });

  it('reads tab-separated files, and a header in any case', () => {
    const text = ['THERMO_ID\tNAME\tTYPE', row({ thermo_id: 7 }, '\t'), row({ thermo_id: 8, name: 'T 8' }, '\t')].join(
      '\n',
    );
    const markers = markersOf(parseThermoConfig(utf8(text)));
    expect(markers.map((m) => [m.thermo_id, m.name])).toEqual([
      [7, 'T1'],
      [8, 'T 8'],
    ]);
  });

  it('reads decimal commas and points, and trims fields', () => {
    const text = ' 4 ; left edge ;  Tmax  ; #ab12cd ;412,5;388.25;14,0;,5;0;64,75;24\n';
    expect(markersOf(parseThermoConfig(utf8(text)))).toEqual([
      {
        thermo_id: 4,
        name: 'left edge',
        type_name: 'Tmax',
        color_hex: '#AB12CD',
        item_x: 412.5,
        item_y: 388.25,
        item_size: 14,
        label_x: 0.5,
        label_y: 0,
        label_width: 64.75,
        label_height: 24,
        zone: null,
      },
    ]);
  });

  it('ignores comments after the fields, but not a colour', () => {
    const text = [
      `#${row()}`,
      `   # indented comment`,
      `${row({ thermo_id: 2 })}# trailing`,
      `${row({ thermo_id: 3 })};;`,
    ].join('\n');
    const markers = markersOf(parseThermoConfig(utf8(text)));
    expect(markers.map((m) => [m.thermo_id, m.color_hex])).toEqual([
      [2, '#E53935'],
      [3, '#E53935'],
    ]);
  });

  it('keeps markers in file order and the photo bounds inclusive', () => {
    const text = [
      row({ thermo_id: 9, item_x: 986, item_size: 14 }),
      row({ thermo_id: 2, label_y: 0, label_height: 500 }),
    ].join('\n');
    const markers = markersOf(parseThermoConfig(utf8(text), { imageWidth: 1000, imageHeight: 500 }));
    expect(markers.map((m) => m.thermo_id)).toEqual([9, 2]);
  });

  it('writes markers that read back the same', () => {
    const text = formatThermoConfig(POLISH_MARKERS);
    expect(text.split('\n')[0]).toBe(ELEVEN_FIELD_HEADER);
    expect(markersOf(parseThermoConfig(utf8(text)))).toEqual(POLISH_MARKERS);
    expect(() => formatThermoConfig([{ ...newRowMarker(), name: 'a;b' }])).toThrow(RangeError);
  });

  it('produces markers that satisfy the marker schema', () => {
    for (const marker of POLISH_MARKERS) expect(thermoMarkerSchema.parse(marker)).toEqual(marker);
    expect(thermoMarkerSchema.safeParse({ ...newRowMarker(), item_size: 0 }).success).toBe(false);
    expect(thermoMarkerSchema.safeParse({ ...newRowMarker(), type_name: 'tmax' }).success).toBe(false);
  });
});

// --- zones --------------------------------------------------------------------------------------

describe('parseThermoConfig: insulation zones (EN 1634-1, I1 / I2)', () => {
  it('reads a file of 11 columns, as written before zones existed, as thermocouples counting for both', () => {
    const text = [ELEVEN_FIELD_HEADER, row({ thermo_id: 1 }), row({ thermo_id: 2 })].join('\r\n');
    expect(markersOf(parseThermoConfig(utf8(text))).map((m) => [m.thermo_id, m.zone])).toEqual([
      [1, null],
      [2, null],
    ]);
  });

  it('reads the 12th column: I1, I2 or empty, in any case, with either header', () => {
    for (const header of [THERMO_CONFIG_HEADER, ELEVEN_FIELD_HEADER]) {
      const text = [
        header,
        row({ thermo_id: 1, zone: 'I1' }),
        row({ thermo_id: 2, zone: 'I2' }),
        row({ thermo_id: 3, zone: '' }),
        row({ thermo_id: 4, zone: ' i2 ' }, '\t'),
        `${row({ thermo_id: 5, zone: 'I1' })};;`,
        row({ thermo_id: 6 }),
        `${row({ thermo_id: 7, zone: 'I2' })} # krawędź skrzydła, 100 mm`,
      ].join('\n');
      expect(markersOf(parseThermoConfig(utf8(text))).map((m) => [m.thermo_id, m.zone])).toEqual([
        [1, 'I1'],
        [2, 'I2'],
        [3, null],
        [4, 'I2'],
        [5, 'I1'],
        [6, null],
        [7, 'I2'],
      ]);
    }
  });

  it('refuses any other zone, naming the line and the field', () => {
    const text = [
      THERMO_CONFIG_HEADER,
      row({ thermo_id: 1, zone: 'I1' }),
      row({ thermo_id: 2, zone: 'EI2' }),
      row({ thermo_id: 3, zone: 'I3', color_hex: 'red' }),
    ].join('\n');
    const errors = errorsOf(parseThermoConfig(utf8(text)));
    expect(errors).toEqual([
      { line: 3, field: 'zone', message: '"EI2" is not an insulation zone (I1, I2, or empty for both)' },
      { line: 4, field: 'color_hex', message: '"red" is not a colour in the form #RRGGBB' },
      { line: 4, field: 'zone', message: '"I3" is not an insulation zone (I1, I2, or empty for both)' },
    ]);
    expect(formatThermoConfigErrors(errors).split('\n')[0]).toBe(
      'line 3, zone: "EI2" is not an insulation zone (I1, I2, or empty for both)',
    );
  });

  it('writes a config without zones byte for byte as before: 11 columns', () => {
    const text = [
      ELEVEN_FIELD_HEADER,
      '1;T1;Tmax;#E53935;412;388;14;430;372;64;24',
      '2;T2;Tmax;#E53935;412.5;388;14;430;372;64;24',
      '',
    ].join('\n');
    const markers = markersOf(parseThermoConfig(utf8(text)));
    expect(formatThermoConfig(markers)).toBe(text);
  });

  it('writes the zone column when a marker has a zone, empty for the others, and reads it back the same', () => {
    const markers: ThermoMarker[] = [
      { ...newRowMarker(), thermo_id: 1, zone: 'I1' },
      { ...newRowMarker(), thermo_id: 2, zone: null },
      { ...newRowMarker(), thermo_id: 3, zone: 'I2' },
    ];
    const text = formatThermoConfig(markers);
    expect(text.split('\n')).toEqual([
      THERMO_CONFIG_HEADER,
      '1;T1;Tmax;#E53935;412;388;14;430;372;64;24;I1',
      '2;T1;Tmax;#E53935;412;388;14;430;372;64;24;',
      '3;T1;Tmax;#E53935;412;388;14;430;372;64;24;I2',
      '',
    ]);
    expect(markersOf(parseThermoConfig(utf8(text)))).toEqual(markers);
    expect(formatThermoConfig(markersOf(parseThermoConfig(utf8(text))))).toBe(text);
  });

  it('gives the marker schema a zone, none when absent', () => {
    const { zone: _zone, ...withoutZone } = newRowMarker();
    expect(thermoMarkerSchema.parse(withoutZone).zone).toBeNull();
    expect(thermoMarkerSchema.parse({ ...newRowMarker(), zone: 'I2' }).zone).toBe('I2');
    expect(thermoMarkerSchema.safeParse({ ...newRowMarker(), zone: 'I3' }).success).toBe(false);
  });

  it('means a zone only for the insulation types of the unexposed face', () => {
    expect(zoneApplies('Tśr i Tmax')).toBe(true);
    expect(zoneApplies('Tmax ościeżnicy')).toBe(true);
    expect(zoneApplies('T kątowników')).toBe(false);
    expect(zoneApplies('T')).toBe(false);
    expect(zoneApplies('nonsense')).toBe(false);
  });
});

// --- errors -------------------------------------------------------------------------------------

describe('parseThermoConfig: errors', () => {
  it('reports every error of every line, with physical line numbers and fields', () => {
    const text = [
      THERMO_CONFIG_HEADER, // 1
      '# comment', // 2
      row({ thermo_id: 1 }), // 3
      row({ thermo_id: 'x', color_hex: '#E5393' }), // 4
      '', // 5
      row({ thermo_id: 1, name: ' ', type_name: 'Tmax dyskretna uzupełniająca', item_x: -3, item_size: 0 }), // 6
      '1;T9;Tmax;#E53935;412;388;14;430;372', // 7
      row({ thermo_id: 5, label_width: 'abc', label_height: '12px', type_name: 'tsr i tmax' }), // 8
    ].join('\r\n');
    const errors = errorsOf(parseThermoConfig(cp1250(text)));
    expect(errors).toEqual([
      { line: 4, field: 'thermo_id', message: '"x" is not a positive integer' },
      { line: 4, field: 'color_hex', message: '"#E5393" is not a colour in the form #RRGGBB' },
      { line: 6, field: 'thermo_id', message: '1 is already used on line 3' },
      { line: 6, field: 'name', message: 'is empty' },
      { line: 6, field: 'type_name', message: '"Tmax dyskretna uzupełniająca" is not one of the 12 measurement types' },
      { line: 6, field: 'item_x', message: '-3 is negative; positions and sizes are ≥ 0' },
      { line: 6, field: 'item_size', message: 'must be greater than 0' },
      { line: 7, field: null, message: 'found 9 fields, expected 11 or 12' },
      {
        line: 8,
        field: 'type_name',
        message: '"tsr i tmax" is not one of the 12 measurement types (did you mean "Tśr i Tmax"?)',
      },
      { line: 8, field: 'label_width', message: '"abc" is not a number' },
      { line: 8, field: 'label_height', message: '"12px" is not a number' },
    ]);
    expect(formatThermoConfigErrors(errors).split('\n').slice(0, 2)).toEqual([
      'line 4, thermo_id: "x" is not a positive integer',
      'line 4, color_hex: "#E5393" is not a colour in the form #RRGGBB',
    ]);
    expect(formatThermoConfigErrors(errors)).toContain('\nline 7: found 9 fields, expected 11 or 12\n');
  });

  it('refuses markers and labels reaching outside the photo, naming the field', () => {
    const text = [
      row({ thermo_id: 1 }),
      row({ thermo_id: 2, item_x: 790, item_size: 14 }),
      row({ thermo_id: 3, item_y: 595, label_x: 750, label_width: 64 }),
      row({ thermo_id: 4, label_y: 590, label_height: '24,5' }),
    ].join('\n');
    expect(errorsOf(parseThermoConfig(utf8(text), { imageWidth: 800, imageHeight: 600 }))).toEqual([
      { line: 2, field: 'item_x', message: 'marker square 790..804 reaches outside the photo (width 800)' },
      { line: 3, field: 'item_y', message: 'marker square 595..609 reaches outside the photo (height 600)' },
      { line: 3, field: 'label_x', message: 'label box 750..814 reaches outside the photo (width 800)' },
      { line: 4, field: 'label_y', message: 'label box 590..614.5 reaches outside the photo (height 600)' },
    ]);
    // Without the photo's size only the shape of each line is checked.
    expect(parseThermoConfig(utf8(text)).ok).toBe(true);
  });

  it.each([
    ['', 'an empty file'],
    ['\r\n\r\n  \r\n', 'blank lines'],
    ['# only\n# comments\n', 'comments'],
    [';;;;;;;;;;\n\t\t;\n', "a spreadsheet's empty rows"],
    [`${THERMO_CONFIG_HEADER}\n`, 'a header alone'],
  ])('refuses %j (%s) as having no thermocouples', (text) => {
    expect(errorsOf(parseThermoConfig(utf8(text)))).toEqual([
      { line: 0, field: null, message: 'the file has no thermocouple lines' },
    ]);
  });

  it('explains a wrong field count', () => {
    const text = ['1,T1,Tmax,#E53935,412,388,14,430,372,64,24', row({ name: 'T#1' }), `${row()};I1;12`].join('\n');
    expect(errorsOf(parseThermoConfig(utf8(text)))).toEqual([
      { line: 1, field: null, message: "found 1 field, expected 11 or 12 (separate fields with ';' or a tab)" },
      { line: 2, field: null, message: "found 2 fields, expected 11 or 12 ('#' starts a comment)" },
      { line: 3, field: null, message: 'found 13 fields, expected 11 or 12' },
    ]);
  });

  it('checks thermo_id against the DAQ channels and names', () => {
    const text = [
      row({ thermo_id: 0 }),
      row({ thermo_id: 1025 }),
      row({ thermo_id: 1024, name: 'x'.repeat(65) }),
      row({ thermo_id: '2.0' }),
    ].join('\n');
    expect(errorsOf(parseThermoConfig(utf8(text)))).toEqual([
      { line: 1, field: 'thermo_id', message: '"0" is not a positive integer' },
      { line: 2, field: 'thermo_id', message: '1025 is above 1024, the highest DAQ channel' },
      { line: 3, field: 'name', message: 'is 65 characters long, at most 64' },
      { line: 4, field: 'thermo_id', message: '"2.0" is not a positive integer' },
    ]);
  });

  it('refuses a header after the first thermocouple', () => {
    const text = [row(), THERMO_CONFIG_HEADER].join('\n');
    expect(errorsOf(parseThermoConfig(utf8(text)))).toEqual([
      { line: 2, field: null, message: 'a header line may only come before the first thermocouple' },
    ]);
  });

  it('refuses a file over maxLines', () => {
    const text = [row({ thermo_id: 1 }), row({ thermo_id: 2 }), row({ thermo_id: 3 })].join('\n') + '\n';
    expect(parseThermoConfig(utf8(text), { maxLines: 3 }).ok).toBe(true);
    expect(errorsOf(parseThermoConfig(utf8(text), { maxLines: 2 }))).toEqual([
      { line: 0, field: null, message: 'the file has 3 lines, at most 2' },
    ]);
  });

  it('throws only on options that are a programming error', () => {
    expect(() => parseThermoConfig(utf8(row()), { imageWidth: 0 })).toThrow(RangeError);
    expect(() => parseThermoConfig(utf8(row()), { imageHeight: Number.NaN })).toThrow(RangeError);
  });

  it('formats whole-file errors without a line number', () => {
    expect(formatThermoConfigErrors([{ line: 0, field: null, message: 'the file has no thermocouple lines' }])).toBe(
      'the file has no thermocouple lines',
    );
  });
});
