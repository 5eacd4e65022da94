import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  Max,
  Min,
  ValidateBy,
  type ValidationArguments,
} from 'class-validator';
import { DAQ_BOUNDS } from '@furnace/contracts';
import { DEFAULT_LANGUAGE, type Language } from '@furnace/text';
import { LanguageField } from '../core/validators';

const MAX_HISTORY_POINTS = 10_000;
const DEFAULT_HISTORY_POINTS = 1_000;
/** Highest thermocouple channel. */
const MAX_THERMO_ID = 4_096;
/**
 * Most thermocouple values (points × distinct thermo_ids) in one history response: what one request may
 * make the API build and hold (each value a min, a max and a mean: at most ~9 MB of JSON). The dashboard
 * asks for 1000 (overview) or 800 (zoom) points of the ticked thermocouples — every one of a 300-channel
 * test fits — and 10 000 points of none; the scalar and category series (at most 27) are not counted,
 * MAX_HISTORY_POINTS bounds them.
 */
const MAX_HISTORY_VALUES = 300_000;
/** Most thermocouples in one history request: the values cap at the default 1000 points. */
const MAX_THERMO_IDS = MAX_HISTORY_VALUES / DEFAULT_HISTORY_POINTS;

/** points × distinct thermo_ids at most MAX_HISTORY_VALUES; the 422 says the cap and what was asked. */
function WithinHistoryValues() {
  const asked = (args: ValidationArguments) => {
    const points = (args.object as { points?: unknown }).points;
    const ids = Array.isArray(args.value) ? new Set(args.value).size : 0;
    return { points: typeof points === 'number' && Number.isFinite(points) ? points : 0, ids };
  };
  return ValidateBy({
    name: 'max_history_values',
    validator: {
      validate: (_value: unknown, args?: ValidationArguments) => {
        if (!args) return true;
        const { points, ids } = asked(args);
        return points * ids <= MAX_HISTORY_VALUES;
      },
      defaultMessage: (args?: ValidationArguments) => {
        const { points, ids } = args ? asked(args) : { points: 0, ids: 0 };
        return (
          `points × thermo_ids must be at most ${MAX_HISTORY_VALUES} values per request ` +
          `(asked ${points} × ${ids} = ${points * ids}): ask for fewer points or fewer thermocouples`
        );
      },
    },
  });
}

/** A range of the test, in seconds since it started (the DAQ's `time`). */
class HistoryRangeQueryDto {
  @ApiPropertyOptional({
    description:
      'Start of the range, seconds since the test started (inclusive; negative: before ignition). Default 0.',
    minimum: DAQ_BOUNDS.time.min,
    example: 0,
  })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(DAQ_BOUNDS.time.min)
  from?: number;

  @ApiPropertyOptional({
    description: 'End of the range, seconds since the test started (inclusive). Default: the last stored frame.',
    minimum: DAQ_BOUNDS.time.min,
    example: 3600,
  })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(DAQ_BOUNDS.time.min)
  to?: number;
}

export class HistoryQueryDto extends HistoryRangeQueryDto {
  @ApiPropertyOptional({
    description:
      'Most points per series. Above it, frames are grouped into equal time buckets and each keeps its min, max and mean.',
    type: 'integer',
    minimum: 2,
    maximum: MAX_HISTORY_POINTS,
    default: DEFAULT_HISTORY_POINTS,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(2)
  @Max(MAX_HISTORY_POINTS)
  points: number = DEFAULT_HISTORY_POINTS;

  @ApiPropertyOptional({
    description:
      'Thermocouples whose own series are answered (thermo_id, repeated or comma-separated). Default none: the scalar series and the ' +
      "measurement types' max and mean only, which are what a chart draws until a thermocouple is ticked. " +
      `At most ${MAX_THERMO_IDS}, and points × thermo_ids at most ${MAX_HISTORY_VALUES} (422 above).`,
    type: 'array',
    items: { type: 'integer', minimum: 1, maximum: MAX_THERMO_ID },
    maxItems: MAX_THERMO_IDS,
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((v) => String(v).split(','))
      .filter((v) => v.trim() !== '')
      .map((v) => (/^\s*\d+\s*$/.test(v) ? Number(v) : Number.NaN)),
  )
  @IsArray()
  @ArrayMaxSize(MAX_THERMO_IDS)
  @IsInt({ each: true, message: 'thermo_ids must be whole numbers' })
  @Min(1, { each: true })
  @Max(MAX_THERMO_ID, { each: true })
  @WithinHistoryValues()
  thermo_ids?: number[];
}

/** A history export: its range and the language of its words (docs/behaviour.md §1). */
export class HistoryExportQueryDto extends HistoryRangeQueryDto {
  @LanguageField(
    "Language of the file's words (headers, sheet names, the metadata and criteria): Polish (default, the installation's language) or English. " +
      'The dashboard sends the language it is shown in. Numbers, dates and identifiers are the same in both.',
  )
  lang: Language = DEFAULT_LANGUAGE;
}

export class HistoryCsvQueryDto extends HistoryExportQueryDto {
  @ApiPropertyOptional({
    description:
      'comma (default): ";" between fields and "," as the decimal mark, as Excel with Polish regional settings opens it directly. ' +
      'point: "," between fields and "." as the decimal mark (Excel with English settings, scripts).',
    enum: ['comma', 'point'],
    default: 'comma',
  })
  @IsOptional()
  @IsIn(['comma', 'point'])
  decimal: 'comma' | 'point' = 'comma';

  @ApiPropertyOptional({
    description:
      '1: a metadata block above the header (research, profile, ignition, T0, excluded and failed thermocouples with reasons), then an empty line.',
    enum: ['0', '1'],
    default: '0',
  })
  @IsOptional()
  @IsIn(['0', '1'])
  meta: '0' | '1' = '0';
}

export type SeriesKind = 'radiance' | 'pressure' | 'pk' | 'thermocouple' | 'category_max' | 'category_mean';

export class HistorySeriesDto {
  @ApiProperty({
    description:
      'Stable key: radiance, pressure, pk, thermo:{id}, category:{type_name}:max or category:{type_name}:mean',
    example: 'thermo:3',
  })
  key!: string;

  @ApiProperty({ enum: ['radiance', 'pressure', 'pk', 'thermocouple', 'category_max', 'category_mean'] })
  kind!: SeriesKind;

  @ApiPropertyOptional({
    type: 'integer',
    description: 'For kind thermocouple: the channel (thermocouples_out index + 1).',
  })
  thermo_id?: number;

  @ApiPropertyOptional({ description: 'For the category kinds: the measurement type.', example: 'Tśr i Tmax' })
  type_name?: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'number', nullable: true },
    description: "Each point's minimum (aligned with `time`); null where the point has no value.",
  })
  min!: (number | null)[];

  @ApiProperty({
    type: 'array',
    items: { type: 'number', nullable: true },
    description: "Each point's maximum: a spike survives downsampling here.",
  })
  max!: (number | null)[];

  @ApiProperty({ type: 'array', items: { type: 'number', nullable: true } })
  mean!: (number | null)[];
}

export class HistoryFaultDto {
  @ApiProperty({
    type: 'integer',
    description: 'The channel that read out of range (a broken thermocouple); its values are null',
  })
  thermo_id!: number;

  @ApiProperty({ description: 'Time of the first frame in the range with the channel flagged, s' })
  first_time!: number;

  @ApiProperty({ description: 'Time of the last flagged frame in the range, s' })
  last_time!: number;

  @ApiProperty({ type: 'integer', description: 'Frames in the range with the channel flagged' })
  frames!: number;
}

export class HistoryDto {
  @ApiProperty({ format: 'uuid' })
  research_id!: string;

  @ApiProperty({ description: 'Start of the range covered, seconds since the test started.' })
  from!: number;

  @ApiProperty({ description: 'End of the range covered (at most last_time).' })
  to!: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'Time of the latest frame stored when the history was read; null before the first. A live view draws this history and then ' +
      'the live frames with time > last_time: every frame a viewer receives live was stored before it was sent, so there is no gap and no duplicate.',
  })
  last_time!: number | null;

  @ApiProperty({ type: 'integer', description: 'Frames in the range.' })
  frames!: number;

  @ApiProperty({
    type: 'array',
    items: { type: 'integer' },
    description:
      'Thermocouples (thermo_id) with at least one reading in the research: the ones whose own series can be asked for with thermo_ids.',
  })
  thermo_ids!: number[];

  @ApiProperty({ description: 'Width of a point in seconds; 0 when every frame is its own point.' })
  bucket_seconds!: number;

  @ApiProperty({ type: [Number], description: "Each point's time: the time of the first frame it groups." })
  time!: number[];

  @ApiProperty({ type: [HistorySeriesDto] })
  series!: HistorySeriesDto[];

  @ApiProperty({
    type: [HistoryFaultDto],
    description: 'Thermocouples flagged out of range by the ingest in the range, by thermo_id',
  })
  faults!: HistoryFaultDto[];

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      "Wall-clock time of ignition (time 0) from the frames' own timestamps (the DAQ's ts, else when the frame was received), " +
      'for the time of day on the axis; null when no frame has one (use start_at).',
  })
  ignition_at!: string | null;
}
