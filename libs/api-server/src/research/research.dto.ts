import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { applyDecorators } from '@nestjs/common';
import {
  IsBoolean,
  IsDateString,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  isISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
} from 'class-validator';
import type { ResearchEntity } from '@furnace/db';
import { type TestStandard } from '@furnace/contracts';
import { CRITERIA_BASES, HEATING_CURVE_IDS, INSULATION_CLASSES, TEST_STANDARD_IDS } from '@furnace/criteria';
import { OptionalNotNull } from '../core/validators';
import { RESEARCH_STATES, type ResearchState, researchState } from './research-state';

/** An ISO 8601 date-time that says its time zone: a bare local time would be read in the server's zone. */
const DateTimeWithZone = () =>
  applyDecorators(
    IsDateString({ strict: true }),
    Matches(/(Z|[+-]\d{2}:?\d{2})$/, { message: '$property must include a time zone (Z or ±hh:mm)' }),
  );

const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

type TestStandardId = TestStandard;

/**
 * The furnace the test is scheduled on (docs/behaviour.md, "Furnaces"); null: none. On create, the profile fields
 * not given are taken from the furnace's defaults.
 */
const FurnaceField = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      format: 'uuid',
      nullable: true,
      description:
        "The furnace it is scheduled on; null for none. A new test takes the profile fields it is not given from the furnace's defaults.",
    }),
    IsOptional(),
    IsUUID('all', { message: 'furnace_id must be a UUID' }),
  );

/** The engineer responsible for the test (docs/behaviour.md, "Alarms"): told of its alarms. */
const ResponsibleField = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      format: 'uuid',
      nullable: true,
      description: 'The member of staff responsible for the test, told of its alarms by e-mail; null for none.',
    }),
    IsOptional(),
    IsUUID('all', { message: 'responsible_user_id must be a UUID' }),
  );

const finite = { allowNaN: false, allowInfinity: false };
/** Bounds of a T0 typed by hand: the laboratory's ambient temperature, not a furnace reading. */
const T0_OVERRIDE_BOUNDS = { min: -50, max: 100 };
const MAX_PLANNED_DURATION_MIN = 24 * 60;
const MAX_PRESSURE_PA = 1_000;

/** The test-profile fields, the same on create and update; null clears a nullable one. */
const ProfileFields = {
  standard: () =>
    applyDecorators(
      ApiPropertyOptional({
        enum: TEST_STANDARD_IDS,
        description: 'EN 1363-1 generic, EN 1634-1 door or shutter, EN 1364-1 wall, DIN 4102-5. Default EN_1363_1.',
      }),
      OptionalNotNull(),
      IsIn(TEST_STANDARD_IDS, { message: `standard must be one of ${TEST_STANDARD_IDS.join(', ')}` }),
    ),
  insulation: () =>
    applyDecorators(
      ApiPropertyOptional({
        enum: INSULATION_CLASSES,
        nullable: true,
        description: 'EN_1634_1 only (I2 when not given); null for the other standards.',
      }),
      IsOptional(),
      IsIn(INSULATION_CLASSES, { message: `insulation must be one of ${INSULATION_CLASSES.join(', ')} or null` }),
    ),
  heatingCurve: () =>
    applyDecorators(
      ApiPropertyOptional({ enum: HEATING_CURVE_IDS, description: 'Default iso834.' }),
      OptionalNotNull(),
      IsIn(HEATING_CURVE_IDS, { message: `heating_curve must be one of ${HEATING_CURVE_IDS.join(', ')}` }),
    ),
  criteriaBasis: () =>
    applyDecorators(
      ApiPropertyOptional({
        enum: CRITERIA_BASES,
        description: 'rise: limits above T0 (default); absolute: the limits as absolute °C.',
      }),
      OptionalNotNull(),
      IsIn(CRITERIA_BASES, { message: `criteria_basis must be one of ${CRITERIA_BASES.join(', ')}` }),
    ),
  plannedDuration: () =>
    applyDecorators(
      ApiPropertyOptional({
        type: 'integer',
        nullable: true,
        minimum: 1,
        maximum: MAX_PLANNED_DURATION_MIN,
        description: 'Minutes; the classification aims at it.',
      }),
      IsOptional(),
      IsInt({ message: 'planned_duration_min must be a whole number of minutes' }),
      Min(1, { message: 'planned_duration_min must be at least 1' }),
      Max(MAX_PLANNED_DURATION_MIN, { message: `planned_duration_min must be at most ${MAX_PLANNED_DURATION_MIN}` }),
    ),
  pressureTarget: () =>
    applyDecorators(
      ApiPropertyOptional({
        type: Number,
        nullable: true,
        minimum: -MAX_PRESSURE_PA,
        maximum: MAX_PRESSURE_PA,
        description: 'Furnace pressure aimed at, Pa.',
      }),
      IsOptional(),
      IsNumber(finite, { message: 'pressure_target_pa must be a number' }),
      Min(-MAX_PRESSURE_PA, { message: `pressure_target_pa must be at least -${MAX_PRESSURE_PA}` }),
      Max(MAX_PRESSURE_PA, { message: `pressure_target_pa must be at most ${MAX_PRESSURE_PA}` }),
    ),
  pressureTolerance: () =>
    applyDecorators(
      ApiPropertyOptional({
        type: Number,
        nullable: true,
        minimum: 0,
        maximum: MAX_PRESSURE_PA,
        description: '± Pa around pressure_target_pa (needs it).',
      }),
      IsOptional(),
      IsNumber(finite, { message: 'pressure_tolerance_pa must be a number' }),
      Min(0, { message: 'pressure_tolerance_pa must not be negative' }),
      Max(MAX_PRESSURE_PA, { message: `pressure_tolerance_pa must be at most ${MAX_PRESSURE_PA}` }),
    ),
  t0Override: () =>
    applyDecorators(
      ApiPropertyOptional({
        type: Number,
        nullable: true,
        minimum: T0_OVERRIDE_BOUNDS.min,
        maximum: T0_OVERRIDE_BOUNDS.max,
        description:
          'T0 set by hand, °C (staff); null returns to the T0 taken from the frames. Who and when are kept (t0_set_by, t0_set_at).',
      }),
      IsOptional(),
      IsNumber(finite, { message: 't0_override must be a number' }),
      Min(T0_OVERRIDE_BOUNDS.min, { message: `t0_override must be at least ${T0_OVERRIDE_BOUNDS.min} °C` }),
      Max(T0_OVERRIDE_BOUNDS.max, { message: `t0_override must be at most ${T0_OVERRIDE_BOUNDS.max} °C` }),
    ),
};

/** Longest text of each report field (characters): the columns' lengths. */
const REPORT_TEXT_LIMITS = {
  sponsor: 255,
  manufacturer: 255,
  specimen_description: 10_000,
  conditioning: 2000,
  supporting_construction: 2000,
  exposed_side: 255,
  end_reason: 2000,
  deviations: 4000,
  report_number: 64,
} as const;
type ReportTextField = keyof typeof REPORT_TEXT_LIMITS;
const AMBIENT_TEMPERATURE = {
  min: -50,
  max: 100,
  unit: '°C',
  description: 'Ambient temperature at the start of the test, °C.',
};
const PRESSURE_HEIGHT = {
  min: 0,
  max: 10_000,
  unit: 'mm',
  description: 'Height at which the furnace pressure is measured, mm.',
};

const REPORT_DESCRIPTIONS = {
  sponsor: 'Who ordered the test.',
  manufacturer: "The specimen's manufacturer.",
  specimen_description: 'The specimen as tested: construction, materials, dimensions.',
  conditioning: 'Conditioning of the specimen and its moisture content.',
  supporting_construction: 'The supporting construction and how the specimen was fixed in it.',
  exposed_side: 'Which side of the specimen faced the furnace.',
  end_reason: 'Why the test ended.',
  deviations: 'Deviations from the test method.',
  report_number: 'The test report\'s reference number, e.g. "LAB/2026/017".',
} satisfies Record<ReportTextField, string>;
/** "2026-03-01": a calendar date, no time, one the calendar has (not 2026-02-30). */
const isCalendarDate = (value: unknown) =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && isISO8601(value, { strict: true });

/** Trimmed; an empty text is no text (null): a form's cleared field clears the column. */
const blankToNull = Transform(({ value }) =>
  typeof value === 'string' ? (value.trim() === '' ? null : value.trim()) : value,
);

/**
 * The fields of the lab's test report (EN 1363-1 §12), the same on create and update; null or '' clears
 * one, and a field left out keeps its value. Every message names its field.
 */
const ReportFields = {
  text: (field: ReportTextField) =>
    applyDecorators(
      ApiPropertyOptional({
        type: String,
        nullable: true,
        maxLength: REPORT_TEXT_LIMITS[field],
        description: REPORT_DESCRIPTIONS[field],
      }),
      blankToNull,
      IsOptional(),
      // One check and one message, whether the value is no text or too long a one.
      ValidateBy({
        name: 'reportText',
        validator: {
          validate: (value: unknown) => typeof value === 'string' && value.length <= REPORT_TEXT_LIMITS[field],
          defaultMessage: () => `${field} must be a text of at most ${REPORT_TEXT_LIMITS[field]} characters`,
        },
      }),
    ),
  number: (
    field: 'ambient_temperature_c' | 'pressure_height_mm',
    { min, max, unit, description }: { min: number; max: number; unit: string; description: string },
  ) =>
    applyDecorators(
      ApiPropertyOptional({ type: Number, nullable: true, minimum: min, maximum: max, description }),
      IsOptional(),
      ValidateBy({
        name: 'reportNumber',
        validator: {
          validate: (value: unknown) =>
            typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max,
          defaultMessage: () => `${field} must be a number from ${min} to ${max} ${unit}`,
        },
      }),
    ),
  reportDate: () =>
    applyDecorators(
      ApiPropertyOptional({
        type: String,
        format: 'date',
        nullable: true,
        description: "The test report's date, YYYY-MM-DD.",
      }),
      blankToNull,
      IsOptional(),
      ValidateBy({
        name: 'calendarDate',
        validator: {
          validate: isCalendarDate,
          defaultMessage: () => 'report_date must be a date written YYYY-MM-DD, one that exists',
        },
      }),
    ),
};

/** The report fields of a research as the API gives them, null for a client (the report is the lab's). */
const reportProperty = (description: string) =>
  ApiProperty({ type: String, nullable: true, description: `${description} Null when not given, and for clients.` });

export class ResearchDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'date-time' }) start_at!: string;
  @ApiProperty({ format: 'date-time' }) end_at!: string;
  @ApiProperty({ description: 'Radiation is measured (kW/m²)' }) is_radiance!: boolean;
  @ApiProperty({ description: 'Mean furnace temperature is measured (°C)' }) is_furnance!: boolean;
  @ApiProperty({ description: 'Furnace pressure is measured (Pa)' }) is_pressure!: boolean;
  @ApiProperty({
    description: "The research's clients see its classification (staff always do; nobody sees a different one)",
  })
  classification_to_clients!: boolean;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The furnace the test is scheduled on (null when none, and for clients)',
  })
  furnace_id!: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The member of staff responsible for the test, told of its alarms (null when none, and for clients)',
  })
  responsible_user_id!: string | null;
  @ApiProperty({ enum: TEST_STANDARD_IDS }) standard!: string;
  @ApiProperty({ enum: INSULATION_CLASSES, nullable: true, type: String }) insulation!: string | null;
  @ApiProperty({ enum: HEATING_CURVE_IDS }) heating_curve!: string;
  @ApiProperty({ enum: CRITERIA_BASES }) criteria_basis!: string;
  @ApiProperty({ type: 'integer', nullable: true }) planned_duration_min!: number | null;
  @ApiProperty({ type: Number, nullable: true }) pressure_target_pa!: number | null;
  @ApiProperty({ type: Number, nullable: true }) pressure_tolerance_pa!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'T0 set by hand, °C; null: taken from the frames' })
  t0_override!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'E-mail of who last set or cleared t0_override (null for clients)',
  })
  t0_set_by!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) t0_set_at!: string | null;
  @reportProperty(REPORT_DESCRIPTIONS.sponsor) sponsor!: string | null;
  @reportProperty(REPORT_DESCRIPTIONS.manufacturer) manufacturer!: string | null;
  @reportProperty(REPORT_DESCRIPTIONS.specimen_description) specimen_description!: string | null;
  @reportProperty(REPORT_DESCRIPTIONS.conditioning) conditioning!: string | null;
  @reportProperty(REPORT_DESCRIPTIONS.supporting_construction) supporting_construction!: string | null;
  @reportProperty(REPORT_DESCRIPTIONS.exposed_side) exposed_side!: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: `${AMBIENT_TEMPERATURE.description} Null when not given, and for clients.`,
  })
  ambient_temperature_c!: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: `${PRESSURE_HEIGHT.description} Null when not given, and for clients.`,
  })
  pressure_height_mm!: number | null;
  @reportProperty(REPORT_DESCRIPTIONS.end_reason) end_reason!: string | null;
  @reportProperty(REPORT_DESCRIPTIONS.deviations) deviations!: string | null;
  @reportProperty(REPORT_DESCRIPTIONS.report_number) report_number!: string | null;
  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description: "The test report's date, YYYY-MM-DD. Null when not given, and for clients.",
  })
  report_date!: string | null;
  @ApiProperty({
    enum: RESEARCH_STATES,
    description:
      'planned, running, ended (from the schedule, the frames and a test_stopped observation), reviewed, approved (stored: an approved test refuses every change until a superuser reopens it)',
  })
  state!: ResearchState;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The revision the test is approved as (1, 2, …); null while it is not approved',
  })
  approved_revision!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'E-mail of who reviewed the test (null when not reviewed, and for clients)',
  })
  reviewed_by!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) reviewed_at!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The reviewer's comment (null for clients)" })
  review_comment!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'E-mail of who approved the test (null when not approved, and for clients)',
  })
  approved_by!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) approved_at!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The approver's comment (null for clients)" })
  approval_comment!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'E-mail of the superuser who last reopened the test (null when never, and for clients)',
  })
  reopened_by!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) reopened_at!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why it was last reopened (null for clients)' })
  reopen_reason!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When a superuser archived it (left out of the lists, every row kept); null: not archived',
  })
  archived_at!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'E-mail of who archived it (null for clients)' })
  archived_by!: string | null;
}

export class ResearchListQueryDto {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description: 'true: the archived researches too (superusers only; 403 for anyone else)',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  include_archived: 'true' | 'false' = 'false';
}

export class ResearchesDto {
  @ApiProperty({ type: [ResearchDto] }) data!: ResearchDto[];
}

type ReportFieldsDto = Pick<
  ResearchDto,
  | 'sponsor'
  | 'manufacturer'
  | 'specimen_description'
  | 'conditioning'
  | 'supporting_construction'
  | 'exposed_side'
  | 'ambient_temperature_c'
  | 'pressure_height_mm'
  | 'end_reason'
  | 'deviations'
  | 'report_number'
  | 'report_date'
>;

const reportFieldsOf = (r: ResearchEntity): ReportFieldsDto => ({
  sponsor: r.sponsor,
  manufacturer: r.manufacturer,
  specimen_description: r.specimenDescription,
  conditioning: r.conditioning,
  supporting_construction: r.supportingConstruction,
  exposed_side: r.exposedSide,
  ambient_temperature_c: r.ambientTemperatureC,
  pressure_height_mm: r.pressureHeightMm,
  end_reason: r.endReason,
  deviations: r.deviations,
  report_number: r.reportNumber,
  report_date: r.reportDate,
});

const NO_REPORT_FIELDS: ReportFieldsDto = Object.freeze({
  sponsor: null,
  manufacturer: null,
  specimen_description: null,
  conditioning: null,
  supporting_construction: null,
  exposed_side: null,
  ambient_temperature_c: null,
  pressure_height_mm: null,
  end_reason: null,
  deviations: null,
  report_number: null,
  report_date: null,
});

type ReviewFieldsDto = Pick<
  ResearchDto,
  | 'reviewed_by'
  | 'reviewed_at'
  | 'review_comment'
  | 'approved_by'
  | 'approved_at'
  | 'approval_comment'
  | 'reopened_by'
  | 'reopened_at'
  | 'reopen_reason'
>;

/** Who reviewed, approved and reopened the test, for staff; a client gets the state and the times only. */
const reviewFieldsOf = (r: ResearchEntity, forViewer: boolean): ReviewFieldsDto => ({
  reviewed_by: forViewer ? null : (r.reviewedBy ?? null),
  reviewed_at: r.reviewedAt?.toISOString() ?? null,
  review_comment: forViewer ? null : (r.reviewComment ?? null),
  approved_by: forViewer ? null : (r.approvedBy ?? null),
  approved_at: r.approvedAt?.toISOString() ?? null,
  approval_comment: forViewer ? null : (r.approvalComment ?? null),
  reopened_by: forViewer ? null : (r.reopenedBy ?? null),
  reopened_at: r.reopenedAt?.toISOString() ?? null,
  reopen_reason: forViewer ? null : (r.reopenReason ?? null),
});

/** `forViewer`: a client does not learn which member of staff set T0, nor what the lab's report states. */
export const toResearchDto = (r: ResearchEntity, forViewer = false): ResearchDto => ({
  id: r.id,
  name: r.name,
  start_at: r.startAt.toISOString(),
  end_at: r.endAt.toISOString(),
  is_radiance: r.isRadiance,
  is_furnance: r.isFurnance,
  is_pressure: r.isPressure,
  furnace_id: forViewer ? null : r.furnaceId,
  responsible_user_id: forViewer ? null : r.responsibleUserId,
  classification_to_clients: r.classificationToClients,
  standard: r.standard,
  insulation: r.insulation,
  heating_curve: r.heatingCurve,
  criteria_basis: r.criteriaBasis,
  planned_duration_min: r.plannedDurationMin,
  pressure_target_pa: r.pressureTargetPa,
  pressure_tolerance_pa: r.pressureTolerancePa,
  t0_override: r.t0Override,
  t0_set_by: forViewer ? null : r.t0SetBy,
  t0_set_at: r.t0SetAt?.toISOString() ?? null,
  ...(forViewer ? NO_REPORT_FIELDS : reportFieldsOf(r)),
  state: researchState(r),
  approved_revision: r.approvedRevision ?? null,
  ...reviewFieldsOf(r, forViewer),
  archived_at: r.archivedAt?.toISOString() ?? null,
  archived_by: forViewer ? null : r.archivedBy,
});

export class ResearchCreateDto {
  @ApiProperty({ maxLength: 255 })
  @trim
  @IsString()
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(255)
  name!: string;
  @ApiProperty({ format: 'date-time', description: 'ISO 8601 with a time zone offset' })
  @DateTimeWithZone()
  start_at!: string;
  @ApiProperty({ format: 'date-time', description: 'After start_at' }) @DateTimeWithZone() end_at!: string;
  @ApiPropertyOptional({ default: false }) @OptionalNotNull() @IsBoolean() is_radiance?: boolean;
  @ApiPropertyOptional({ default: false }) @OptionalNotNull() @IsBoolean() is_furnance?: boolean;
  @ApiPropertyOptional({ default: false }) @OptionalNotNull() @IsBoolean() is_pressure?: boolean;
  @ApiPropertyOptional({ default: true }) @OptionalNotNull() @IsBoolean() classification_to_clients?: boolean;
  @FurnaceField() furnace_id?: string | null;
  @ResponsibleField() responsible_user_id?: string | null;
  @ProfileFields.standard() standard?: TestStandardId;
  @ProfileFields.insulation() insulation?: 'I1' | 'I2' | null;
  @ProfileFields.heatingCurve() heating_curve?: (typeof HEATING_CURVE_IDS)[number];
  @ProfileFields.criteriaBasis() criteria_basis?: (typeof CRITERIA_BASES)[number];
  @ProfileFields.plannedDuration() planned_duration_min?: number | null;
  @ProfileFields.pressureTarget() pressure_target_pa?: number | null;
  @ProfileFields.pressureTolerance() pressure_tolerance_pa?: number | null;
  @ProfileFields.t0Override() t0_override?: number | null;
  @ReportFields.text('sponsor') sponsor?: string | null;
  @ReportFields.text('manufacturer') manufacturer?: string | null;
  @ReportFields.text('specimen_description') specimen_description?: string | null;
  @ReportFields.text('conditioning') conditioning?: string | null;
  @ReportFields.text('supporting_construction') supporting_construction?: string | null;
  @ReportFields.text('exposed_side') exposed_side?: string | null;
  @ReportFields.number('ambient_temperature_c', AMBIENT_TEMPERATURE) ambient_temperature_c?: number | null;
  @ReportFields.number('pressure_height_mm', PRESSURE_HEIGHT) pressure_height_mm?: number | null;
  @ReportFields.text('end_reason') end_reason?: string | null;
  @ReportFields.text('deviations') deviations?: string | null;
  @ReportFields.text('report_number') report_number?: string | null;
  @ReportFields.reportDate() report_date?: string | null;
}

/** PUT accepts a partial body: only the fields given change. */
export class ResearchUpdateDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @OptionalNotNull()
  @trim
  @IsString()
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(255)
  name?: string;
  @ApiPropertyOptional({ format: 'date-time' }) @OptionalNotNull() @DateTimeWithZone() start_at?: string;
  @ApiPropertyOptional({ format: 'date-time' }) @OptionalNotNull() @DateTimeWithZone() end_at?: string;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() is_radiance?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() is_furnance?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() is_pressure?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() classification_to_clients?: boolean;
  @FurnaceField() furnace_id?: string | null;
  @ResponsibleField() responsible_user_id?: string | null;
  @ProfileFields.standard() standard?: TestStandardId;
  @ProfileFields.insulation() insulation?: 'I1' | 'I2' | null;
  @ProfileFields.heatingCurve() heating_curve?: (typeof HEATING_CURVE_IDS)[number];
  @ProfileFields.criteriaBasis() criteria_basis?: (typeof CRITERIA_BASES)[number];
  @ProfileFields.plannedDuration() planned_duration_min?: number | null;
  @ProfileFields.pressureTarget() pressure_target_pa?: number | null;
  @ProfileFields.pressureTolerance() pressure_tolerance_pa?: number | null;
  @ProfileFields.t0Override() t0_override?: number | null;
  @ReportFields.text('sponsor') sponsor?: string | null;
  @ReportFields.text('manufacturer') manufacturer?: string | null;
  @ReportFields.text('specimen_description') specimen_description?: string | null;
  @ReportFields.text('conditioning') conditioning?: string | null;
  @ReportFields.text('supporting_construction') supporting_construction?: string | null;
  @ReportFields.text('exposed_side') exposed_side?: string | null;
  @ReportFields.number('ambient_temperature_c', AMBIENT_TEMPERATURE) ambient_temperature_c?: number | null;
  @ReportFields.number('pressure_height_mm', PRESSURE_HEIGHT) pressure_height_mm?: number | null;
  @ReportFields.text('end_reason') end_reason?: string | null;
  @ReportFields.text('deviations') deviations?: string | null;
  @ReportFields.text('report_number') report_number?: string | null;
  @ReportFields.reportDate() report_date?: string | null;
}

export class ViewerTokenRequestDto {
  @ApiProperty({ description: 'The access code from the invitation link (?code=)' })
  @IsString()
  @MaxLength(64)
  code!: string;
}

export class ViewerTokenDto {
  @ApiProperty({ description: 'Bearer token for reading this research only' }) access_token!: string;
  @ApiProperty({ example: 'bearer' }) token_type!: 'bearer';
  @ApiProperty({ description: 'Seconds until the token expires' }) expires_in!: number;
  @ApiProperty({ format: 'uuid' }) research_id!: string;
}

export class UrlDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ format: 'uuid' }) research_id!: string;
}

export const toUrlDto = (u: { id: string; url: string; researchId: string }): UrlDto => ({
  id: u.id,
  url: u.url,
  research_id: u.researchId,
});

export class UrlsDto {
  @ApiProperty({ type: [UrlDto] }) data!: UrlDto[];
}

export class UrlCreateDto {
  @ApiProperty({
    maxLength: 2048,
    description: 'An http(s) link: YouTube, an HLS .m3u8 stream or another embeddable page',
  })
  @trim
  @IsString()
  @MaxLength(2048)
  url!: string;
  @ApiProperty({ format: 'uuid' }) @IsUUID() research_id!: string;
}

export class UrlUpdateDto {
  @ApiProperty({ maxLength: 2048 }) @trim @IsString() @MaxLength(2048) url!: string;
}
