import { z } from 'zod';
import { MAX_CHANNELS } from './daq';
import {
  MEASUREMENT_TYPE_NAMES,
  isMeasurementTypeName,
  measurementTypeNameSchema,
  type MeasurementTypeName,
} from './measurement-types';

/*
 * The thermocouple config file (.txt) uploaded with an object photo, see the README's
 * "Thermocouple config files". One thermocouple per line, the 12th field optional:
 *   thermo_id;name;type_name;color_hex;item_x;item_y;item_size;label_x;label_y;label_width;label_height;zone
 */

/** The fields every line has; files written before zones existed have exactly these. */
const REQUIRED_FIELDS = [
  'thermo_id',
  'name',
  'type_name',
  'color_hex',
  'item_x',
  'item_y',
  'item_size',
  'label_x',
  'label_y',
  'label_width',
  'label_height',
] as const;
export const THERMO_CONFIG_FIELDS = [...REQUIRED_FIELDS, 'zone'] as const;
export type ThermoConfigField = (typeof THERMO_CONFIG_FIELDS)[number];

export const THERMO_CONFIG_HEADER = THERMO_CONFIG_FIELDS.join(';');

/**
 * EN 1634-1 classifies a door for both insulation classes from one test ("E 90, EI1 30, EI2 60"), and
 * the two classes read different thermocouples near the edges: for I2 those of the leaf within 100 mm
 * of its edge and those of the frame at 100 mm, for I1 those at 25 mm. A thermocouple's zone says which
 * class it counts for: I1 only, I2 only, or (no zone) both.
 */
export const THERMO_ZONES = ['I1', 'I2'] as const;
export type ThermoZone = (typeof THERMO_ZONES)[number];

/*
 * The fixing system's ('T kątowników') and the plain ('T') thermocouples count for no insulation
 * criterion, so a zone would mean nothing on them.
 */
const ZONELESS_TYPES: ReadonlySet<string> = new Set<MeasurementTypeName>(['T kątowników', 'T']);

/** Whether a zone means anything for a thermocouple of this type (one of the unexposed face's insulation types). */
export function zoneApplies(typeName: string): boolean {
  return isMeasurementTypeName(typeName) && !ZONELESS_TYPES.has(typeName);
}

export const MAX_THERMO_NAME_LENGTH = 64;
/** Default for `maxLines`: physical lines in one file (comments and blank lines included). */
export const DEFAULT_MAX_CONFIG_LINES = 10_000;

const COLOR_HEX = /^#[0-9A-Fa-f]{6}$/;

/** One marker on a photo; positions and sizes in the photo's own pixel coordinates. */
export const thermoMarkerSchema = z.object({
  /** Thermocouple number: its reading is `thermocouples_out[thermo_id - 1]`. */
  thermo_id: z.number().int().min(1).max(MAX_CHANNELS),
  name: z.string().trim().min(1).max(MAX_THERMO_NAME_LENGTH),
  type_name: measurementTypeNameSchema,
  color_hex: z.string().regex(COLOR_HEX),
  item_x: z.number().min(0),
  item_y: z.number().min(0),
  item_size: z.number().positive(),
  label_x: z.number().min(0),
  label_y: z.number().min(0),
  label_width: z.number().positive(),
  label_height: z.number().positive(),
  /** Which insulation class the thermocouple counts for; null (or absent) for both. */
  zone: z.enum(THERMO_ZONES).nullable().default(null),
});
export type ThermoMarker = z.output<typeof thermoMarkerSchema>;

export interface ThermoConfigError {
  /** 1-based physical line of the file; 0 for an error about the whole file. */
  readonly line: number;
  readonly field: ThermoConfigField | null;
  readonly message: string;
}

export type ThermoConfigEncoding = 'utf-8' | 'windows-1250';

export type ThermoConfigResult =
  | { readonly ok: true; readonly encoding: ThermoConfigEncoding; readonly markers: ThermoMarker[] }
  | { readonly ok: false; readonly errors: ThermoConfigError[] };

export interface ThermoConfigOptions {
  /** Photo size in pixels; when given, markers and labels must lie inside the photo. */
  readonly imageWidth?: number;
  readonly imageHeight?: number;
  /** Most physical lines accepted (default DEFAULT_MAX_CONFIG_LINES). */
  readonly maxLines?: number;
}

// ---------------------------------------------------------------------------------------------
// Decoding

type Decoded = { ok: true; text: string; encoding: ThermoConfigEncoding } | { ok: false; message: string };

function decode(bytes: Uint8Array): Decoded {
  const hasUtf8Bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const hasUtf16Bom =
    bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  if (hasUtf16Bom) {
    return { ok: false, message: 'the file is UTF-16; save it as UTF-8 or Windows-1250' };
  }
  if (bytes.includes(0)) {
    return { ok: false, message: 'the file is not a text file (it contains NUL bytes)' };
  }
  try {
    // The decoder drops a leading BOM by itself.
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    if (hasUtf8Bom) {
      return { ok: false, message: 'the file starts with a UTF-8 byte order mark but is not valid UTF-8' };
    }
    // Every byte sequence decodes in Windows-1250, the code page Polish Windows tools write.
    return { ok: true, text: new TextDecoder('windows-1250').decode(bytes), encoding: 'windows-1250' };
  }
}

// ---------------------------------------------------------------------------------------------
// Lines and fields

/**
 * Cuts the comment off a line. `#` starts a comment anywhere except where it opens the
 * color_hex field (the 4th), whose values themselves start with `#`.
 */
function stripComment(line: string): { content: string; hadComment: boolean } {
  let field = 0;
  let fieldHasContent = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === ';' || ch === '\t') {
      field++;
      fieldHasContent = false;
    } else if (ch === '#') {
      if (field === 3 && !fieldHasContent) {
        fieldHasContent = true;
      } else {
        return { content: line.slice(0, i), hadComment: true };
      }
    } else if (!/\s/.test(ch ?? '')) {
      fieldHasContent = true;
    }
  }
  return { content: line, hadComment: false };
}

const FIELD_SEPARATOR = /[;\t]/;

type FieldResult<T> = { ok: true; value: T } | { ok: false; message: string };

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

function parseThermoId(raw: string): FieldResult<number> {
  if (raw === '') return fail('is empty');
  if (!/^\d+$/.test(raw)) return fail(`"${raw}" is not a positive integer`);
  const id = Number(raw);
  if (id < 1) return fail(`"${raw}" is not a positive integer`);
  if (id > MAX_CHANNELS) return fail(`${id} is above ${MAX_CHANNELS}, the highest DAQ channel`);
  return { ok: true, value: id };
}

function parseName(raw: string): FieldResult<string> {
  if (raw === '') return fail('is empty');
  const length = [...raw].length;
  if (length > MAX_THERMO_NAME_LENGTH) return fail(`is ${length} characters long, at most ${MAX_THERMO_NAME_LENGTH}`);
  return { ok: true, value: raw };
}

/** Loose form of a type name, only to suggest the intended one: case, spacing, Polish letters. */
function looseTypeKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[łŁ]/g, 'l')
    .toLowerCase()
    .replace(/\s+/g, '');
}
const TYPE_BY_LOOSE_KEY = new Map<string, string>(MEASUREMENT_TYPE_NAMES.map((name) => [looseTypeKey(name), name]));

function parseTypeName(raw: string): FieldResult<ThermoMarker['type_name']> {
  if (raw === '') return fail('is empty');
  if (isMeasurementTypeName(raw)) return { ok: true, value: raw };
  const suggestion = TYPE_BY_LOOSE_KEY.get(looseTypeKey(raw));
  const hint = suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`;
  return fail(`"${raw}" is not one of the ${MEASUREMENT_TYPE_NAMES.length} measurement types${hint}`);
}

function parseColor(raw: string): FieldResult<string> {
  if (raw === '') return fail('is empty');
  if (!COLOR_HEX.test(raw)) return fail(`"${raw}" is not a colour in the form #RRGGBB`);
  return { ok: true, value: raw.toUpperCase() };
}

const DECIMAL = /^(?:\d+(?:[.,]\d*)?|[.,]\d+)$/;

function parseNumber(raw: string, positive: boolean): FieldResult<number> {
  if (raw === '') return fail('is empty');
  const negative = raw.startsWith('-') && DECIMAL.test(raw.slice(1));
  if (negative) return fail(`${raw} is negative; positions and sizes are ≥ 0`);
  if (!DECIMAL.test(raw)) return fail(`"${raw}" is not a number`);
  const value = Number(raw.replace(',', '.'));
  if (!Number.isFinite(value)) return fail(`"${raw}" is too large`);
  if (positive && value === 0) return fail('must be greater than 0');
  return { ok: true, value };
}

function parseZone(raw: string): FieldResult<ThermoZone | null> {
  if (raw === '') return { ok: true, value: null };
  // Read like a colour: a hand-typed "i2" can mean nothing else.
  const zone = THERMO_ZONES.find((name) => name === raw.toUpperCase());
  if (zone === undefined) return fail(`"${raw}" is not an insulation zone (I1, I2, or empty for both)`);
  return { ok: true, value: zone };
}

const SIZE_FIELDS: ReadonlySet<ThermoConfigField> = new Set(['item_size', 'label_width', 'label_height']);

// ---------------------------------------------------------------------------------------------
// Parser

function checkOptions(options: ThermoConfigOptions): void {
  for (const key of ['imageWidth', 'imageHeight', 'maxLines'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
      throw new RangeError(`parseThermoConfig: ${key} must be a positive number, got ${String(value)}`);
    }
  }
}

/**
 * Parses a thermocouple config file. Never throws on file content: a bad file gives every error
 * in it at once (all lines, all fields), by physical line and field name.
 * Throws RangeError only for invalid options (a programming error).
 */
export function parseThermoConfig(bytes: Uint8Array, options: ThermoConfigOptions = {}): ThermoConfigResult {
  checkOptions(options);
  const { imageWidth, imageHeight } = options;
  const maxLines = options.maxLines ?? DEFAULT_MAX_CONFIG_LINES;

  const decoded = decode(bytes);
  if (!decoded.ok) return { ok: false, errors: [{ line: 0, field: null, message: decoded.message }] };

  const lines = decoded.text.split(/\r\n|\r|\n/);
  // A final line break does not start another line.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length > maxLines) {
    return {
      ok: false,
      errors: [{ line: 0, field: null, message: `the file has ${lines.length} lines, at most ${maxLines}` }],
    };
  }

  const errors: ThermoConfigError[] = [];
  const markers: ThermoMarker[] = [];
  const lineOfId = new Map<number, number>();
  let seenContent = false;
  let dataLines = 0;

  lines.forEach((physical, index) => {
    const lineNo = index + 1;
    const { content, hadComment } = stripComment(physical);
    // Blank, comment-only, or only separators (a spreadsheet's empty row).
    if (/^[\s;]*$/.test(content)) return;

    const isHeader = /^thermo_id\b/i.test(content.trim());
    const firstContent = !seenContent;
    seenContent = true;
    if (isHeader) {
      if (!firstContent) {
        errors.push({
          line: lineNo,
          field: null,
          message: 'a header line may only come before the first thermocouple',
        });
      }
      return;
    }
    dataLines++;

    const error = (field: ThermoConfigField | null, message: string): void => {
      errors.push({ line: lineNo, field, message });
    };

    const fields = content.split(FIELD_SEPARATOR).map((field) => field.normalize('NFC').trim());
    // Tolerate separators after the last field (spreadsheet exports add them).
    while (fields.length > THERMO_CONFIG_FIELDS.length && fields[fields.length - 1] === '') fields.pop();
    // The zone column is optional: a file written before it existed has one field fewer.
    if (fields.length !== REQUIRED_FIELDS.length && fields.length !== THERMO_CONFIG_FIELDS.length) {
      let hint = '';
      if (fields.length === 1 && physical.includes(',') && !FIELD_SEPARATOR.test(physical)) {
        hint = " (separate fields with ';' or a tab)";
      } else if (hadComment) {
        hint = " ('#' starts a comment)";
      }
      const found = fields.length === 1 ? '1 field' : `${fields.length} fields`;
      error(null, `found ${found}, expected ${REQUIRED_FIELDS.length} or ${THERMO_CONFIG_FIELDS.length}${hint}`);
      return;
    }

    const raw = (field: ThermoConfigField): string => fields[THERMO_CONFIG_FIELDS.indexOf(field)] ?? '';
    const take = <T>(field: ThermoConfigField, result: FieldResult<T>): T | undefined => {
      if (result.ok) return result.value;
      error(field, result.message);
      return undefined;
    };

    let thermoId = take('thermo_id', parseThermoId(raw('thermo_id')));
    if (thermoId !== undefined) {
      const firstLine = lineOfId.get(thermoId);
      if (firstLine !== undefined) {
        error('thermo_id', `${thermoId} is already used on line ${firstLine}`);
        thermoId = undefined;
      } else {
        lineOfId.set(thermoId, lineNo);
      }
    }
    const name = take('name', parseName(raw('name')));
    const typeName = take('type_name', parseTypeName(raw('type_name')));
    const color = take('color_hex', parseColor(raw('color_hex')));
    const numbers = new Map<ThermoConfigField, number>();
    for (const field of REQUIRED_FIELDS.slice(4)) {
      const value = take(field, parseNumber(raw(field), SIZE_FIELDS.has(field)));
      if (value !== undefined) numbers.set(field, value);
    }

    const within = (
      start: ThermoConfigField,
      size: ThermoConfigField,
      limit: number | undefined,
      what: string,
      axis: string,
    ): void => {
      const from = numbers.get(start);
      const extent = numbers.get(size);
      if (limit === undefined || from === undefined || extent === undefined) return;
      const to = from + extent;
      if (to > limit) error(start, `${what} ${from}..${to} reaches outside the photo (${axis} ${limit})`);
    };
    within('item_x', 'item_size', imageWidth, 'marker square', 'width');
    within('item_y', 'item_size', imageHeight, 'marker square', 'height');
    within('label_x', 'label_width', imageWidth, 'label box', 'width');
    within('label_y', 'label_height', imageHeight, 'label box', 'height');

    const num = (field: ThermoConfigField): number | undefined => numbers.get(field);
    const [itemX, itemY, itemSize, labelX, labelY, labelWidth, labelHeight] = REQUIRED_FIELDS.slice(4).map(num);
    const zone = take('zone', parseZone(raw('zone')));
    if (
      thermoId !== undefined &&
      name !== undefined &&
      typeName !== undefined &&
      color !== undefined &&
      itemX !== undefined &&
      itemY !== undefined &&
      itemSize !== undefined &&
      labelX !== undefined &&
      labelY !== undefined &&
      labelWidth !== undefined &&
      labelHeight !== undefined &&
      zone !== undefined
    ) {
      markers.push({
        thermo_id: thermoId,
        name,
        type_name: typeName,
        color_hex: color,
        item_x: itemX,
        item_y: itemY,
        item_size: itemSize,
        label_x: labelX,
        label_y: labelY,
        label_width: labelWidth,
        label_height: labelHeight,
        zone,
      });
    }
  });

  if (dataLines === 0) errors.unshift({ line: 0, field: null, message: 'the file has no thermocouple lines' });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, encoding: decoded.encoding, markers };
}

/** One error as a reader sees it: `line 4, color_hex: "#E5393" is not a colour in the form #RRGGBB`. */
export function formatThermoConfigError(error: ThermoConfigError): string {
  if (error.line === 0) return error.field === null ? error.message : `${error.field}: ${error.message}`;
  const where = error.field === null ? `line ${error.line}` : `line ${error.line}, ${error.field}`;
  return `${where}: ${error.message}`;
}

/** All errors, one per line, in file order. */
export function formatThermoConfigErrors(errors: readonly ThermoConfigError[]): string {
  return errors.map(formatThermoConfigError).join('\n');
}

/**
 * Writes markers in the canonical format (header, `;`, decimal point; encode the text as UTF-8),
 * which parseThermoConfig reads back to the same markers. The zone column is written only when some
 * marker has a zone, so a config without zones is the same file, byte for byte, as before zones
 * existed (and tools that read 11 columns still read it). Throws RangeError for a name that the
 * format cannot carry (a separator, `#` or a line break in it).
 */
export function formatThermoConfig(markers: readonly ThermoMarker[]): string {
  const fields = markers.some((marker) => marker.zone !== null) ? THERMO_CONFIG_FIELDS : REQUIRED_FIELDS;
  const rows = markers.map((marker) => {
    if (/[;\t#\r\n]/.test(marker.name)) {
      throw new RangeError(
        `formatThermoConfig: name ${JSON.stringify(marker.name)} cannot be written to a config file`,
      );
    }
    return fields.map((field) => String(marker[field] ?? '')).join(';');
  });
  return [fields.join(';'), ...rows].join('\n') + '\n';
}
