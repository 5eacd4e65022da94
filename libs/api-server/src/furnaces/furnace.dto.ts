import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import type { FurnaceDaqCredentialEntity, FurnaceEntity } from '@furnace/db';
import { FURNACE_CODE_PATTERN } from '@furnace/contracts';
import { HEATING_CURVE_IDS, TEST_STANDARD_IDS } from '@furnace/criteria';
import { OptionalNotNull } from '../core/validators';

const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
const finite = { allowNaN: false, allowInfinity: false };
/** One scan an hour is the slowest DAQ worth calling live; the DAQ contract's frames come every second or faster. */
const MAX_SCAN_PERIOD_S = 3600;
const MAX_PRESSURE_PA = 1_000;

/** At most this many addresses on a furnace's watch list. */
const MAX_WATCH_EMAILS = 50;
const lowerAll = Transform(({ value }) =>
  Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v)) : value,
);

/** Who is told of the alarms of a test on the furnace (docs/behaviour.md, "Alarms"). */
const AlarmFields = {
  watchEmails: () =>
    applyDecorators(
      ApiPropertyOptional({
        type: [String],
        maxItems: MAX_WATCH_EMAILS,
        description:
          "E-mail addresses told of every alarm of a test on this furnace (besides the test's responsible engineer).",
      }),
      OptionalNotNull(),
      lowerAll,
      IsArray({ message: 'watch_emails must be a list of e-mail addresses' }),
      ArrayMaxSize(MAX_WATCH_EMAILS, { message: `watch_emails must hold at most ${MAX_WATCH_EMAILS} addresses` }),
      IsEmail({}, { each: true, message: 'watch_emails must hold e-mail addresses only' }),
    ),
  webhookUrl: () =>
    applyDecorators(
      ApiPropertyOptional({
        type: String,
        nullable: true,
        maxLength: 2000,
        description:
          'Where every alarm of a test on this furnace is POSTed (JSON, signed: X-Furnace-Signature); null: none.',
      }),
      IsOptional(),
      IsUrl(
        { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
        { message: 'webhook_url must be an http or https URL' },
      ),
      MaxLength(2000, { message: 'webhook_url must be at most 2000 characters' }),
    ),
  webhookSecret: () =>
    applyDecorators(
      ApiPropertyOptional({
        type: String,
        nullable: true,
        minLength: 16,
        maxLength: 255,
        writeOnly: true,
        description:
          "The HMAC-SHA256 key of the webhook's signature (16–255 characters); never shown back (webhook_secret_set). null: none.",
      }),
      IsOptional(),
      IsString({ message: 'webhook_secret must be a string' }),
      MinLength(16, { message: 'webhook_secret must be at least 16 characters' }),
      MaxLength(255, { message: 'webhook_secret must be at most 255 characters' }),
    ),
};

const Fields = {
  name: () => applyDecorators(trim, IsString(), IsNotEmpty({ message: 'name must not be empty' }), MaxLength(255)),
  code: () =>
    applyDecorators(
      IsString(),
      Matches(FURNACE_CODE_PATTERN, {
        message: 'code must be 1–16 lowercase letters, digits or hyphens, starting with a letter or digit',
      }),
    ),
  scanPeriod: () =>
    applyDecorators(
      OptionalNotNull(),
      IsNumber(finite, { message: 'scan_period_s must be a number' }),
      Min(0.01, { message: 'scan_period_s must be at least 0.01' }),
      Max(MAX_SCAN_PERIOD_S, { message: `scan_period_s must be at most ${MAX_SCAN_PERIOD_S}` }),
    ),
  standard: () =>
    applyDecorators(
      OptionalNotNull(),
      IsIn(TEST_STANDARD_IDS, { message: `standard must be one of ${TEST_STANDARD_IDS.join(', ')}` }),
    ),
  heatingCurve: () =>
    applyDecorators(
      OptionalNotNull(),
      IsIn(HEATING_CURVE_IDS, { message: `heating_curve must be one of ${HEATING_CURVE_IDS.join(', ')}` }),
    ),
  pressure: (field: string, min: number) =>
    applyDecorators(
      IsOptional(),
      IsNumber(finite, { message: `${field} must be a number` }),
      Min(min, { message: min === 0 ? `${field} must not be negative` : `${field} must be at least ${min}` }),
      Max(MAX_PRESSURE_PA, { message: `${field} must be at most ${MAX_PRESSURE_PA}` }),
    ),
};

export class FurnaceCreateDto {
  @ApiProperty({ maxLength: 255, example: 'Piec poziomy' }) @Fields.name() name!: string;
  @ApiProperty({
    pattern: FURNACE_CODE_PATTERN.source,
    example: 'p1',
    description: 'Unique; lowercase letters, digits and hyphens (1–16).',
  })
  @Fields.code()
  code!: string;
  @ApiPropertyOptional({
    minimum: 0.01,
    maximum: MAX_SCAN_PERIOD_S,
    default: 1,
    description: "Seconds between two frames of the furnace's DAQ.",
  })
  @Fields.scanPeriod()
  scan_period_s?: number;
  @ApiPropertyOptional({
    enum: TEST_STANDARD_IDS,
    default: 'EN_1363_1',
    description: 'The standard a new test on this furnace starts from.',
  })
  @Fields.standard()
  standard?: (typeof TEST_STANDARD_IDS)[number];
  @ApiPropertyOptional({
    enum: HEATING_CURVE_IDS,
    default: 'iso834',
    description: 'The heating curve a new test on this furnace starts from.',
  })
  @Fields.heatingCurve()
  heating_curve?: (typeof HEATING_CURVE_IDS)[number];
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Furnace pressure a new test aims at, Pa.' })
  @Fields.pressure('pressure_target_pa', -MAX_PRESSURE_PA)
  pressure_target_pa?: number | null;
  @ApiPropertyOptional({ type: Number, nullable: true, description: '± Pa around pressure_target_pa.' })
  @Fields.pressure('pressure_tolerance_pa', 0)
  pressure_tolerance_pa?: number | null;
  @AlarmFields.watchEmails() watch_emails?: string[];
  @AlarmFields.webhookUrl() webhook_url?: string | null;
  @AlarmFields.webhookSecret() webhook_secret?: string | null;
}

/** PATCH: only the fields given change. */
export class FurnaceUpdateDto {
  @ApiPropertyOptional({ maxLength: 255 }) @OptionalNotNull() @Fields.name() name?: string;
  @ApiPropertyOptional({ pattern: FURNACE_CODE_PATTERN.source }) @OptionalNotNull() @Fields.code() code?: string;
  @ApiPropertyOptional({ minimum: 0.01, maximum: MAX_SCAN_PERIOD_S }) @Fields.scanPeriod() scan_period_s?: number;
  @ApiPropertyOptional({ enum: TEST_STANDARD_IDS }) @Fields.standard() standard?: (typeof TEST_STANDARD_IDS)[number];
  @ApiPropertyOptional({ enum: HEATING_CURVE_IDS })
  @Fields.heatingCurve()
  heating_curve?: (typeof HEATING_CURVE_IDS)[number];
  @ApiPropertyOptional({ type: Number, nullable: true })
  @Fields.pressure('pressure_target_pa', -MAX_PRESSURE_PA)
  pressure_target_pa?: number | null;
  @ApiPropertyOptional({ type: Number, nullable: true })
  @Fields.pressure('pressure_tolerance_pa', 0)
  pressure_tolerance_pa?: number | null;
  @AlarmFields.watchEmails() watch_emails?: string[];
  @AlarmFields.webhookUrl() webhook_url?: string | null;
  @AlarmFields.webhookSecret() webhook_secret?: string | null;
}

/** Whether the furnace's DAQ has a credential, never the secret (docs/behaviour.md, "DAQ credentials"). */
export class DaqCredentialStateDto {
  @ApiProperty({ example: 'daq-p1', description: 'The MQTT username its DAQ signs in with.' }) username!: string;
  @ApiProperty({ format: 'date-time', description: 'When it was issued or last rotated.' }) issued_at!: string;
}

/** The credential just issued: the password is in this answer only, never again. */
export class DaqCredentialIssuedDto extends DaqCredentialStateDto {
  @ApiProperty({ description: 'The MQTT password; shown once: the system keeps only its hash.' }) password!: string;
  @ApiProperty({ example: 'lab/p1/data', description: 'The one topic this credential may publish to.' }) topic!: string;
  @ApiProperty({ description: 'True when it replaced a credential (whose connections were closed).' })
  rotated!: boolean;
}

export class FurnaceDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() code!: string;
  @ApiProperty() scan_period_s!: number;
  @ApiProperty({ enum: TEST_STANDARD_IDS }) standard!: string;
  @ApiProperty({ enum: HEATING_CURVE_IDS }) heating_curve!: string;
  @ApiProperty({ type: Number, nullable: true }) pressure_target_pa!: number | null;
  @ApiProperty({ type: Number, nullable: true }) pressure_tolerance_pa!: number | null;
  @ApiProperty({ type: [String] }) watch_emails!: string[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The whole URL for superusers; its origin only (https://host/…) for other staff',
  })
  webhook_url!: string | null;
  @ApiProperty({ description: 'A webhook secret is set (it is never shown back)' }) webhook_secret_set!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({
    type: DaqCredentialStateDto,
    nullable: true,
    description: "The DAQ's credential, null when none was issued.",
  })
  daq_credential!: DaqCredentialStateDto | null;
}

export class FurnacesDto {
  @ApiProperty({ type: [FurnaceDto] }) data!: FurnaceDto[];
  @ApiProperty() count!: number;
}

/**
 * What a reader may see of where the furnace's alarms go (docs/behaviour.md §17): superusers the webhook's URL whole,
 * other staff its origin only (`https://host/…`): a webhook's path is often a secret of its own.
 */
function webhookUrlFor(url: string | null, superuser: boolean): string | null {
  if (url === null || superuser) return url;
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}/…`;
}

export const toFurnaceDto = (
  f: FurnaceEntity,
  credential: FurnaceDaqCredentialEntity | null,
  reader: { isSuperuser: boolean },
): FurnaceDto => ({
  id: f.id,
  name: f.name,
  code: f.code,
  scan_period_s: f.scanPeriodS,
  standard: f.standard,
  heating_curve: f.heatingCurve,
  pressure_target_pa: f.pressureTargetPa,
  pressure_tolerance_pa: f.pressureTolerancePa,
  watch_emails: f.watchEmails,
  webhook_url: webhookUrlFor(f.webhookUrl, reader.isSuperuser),
  webhook_secret_set: f.webhookSecret !== null,
  created_at: f.createdAt.toISOString(),
  updated_at: f.updatedAt.toISOString(),
  daq_credential: credential && { username: credential.username, issued_at: credential.issuedAt.toISOString() },
});

export type FurnaceInput = Partial<
  Pick<
    FurnaceEntity,
    | 'name'
    | 'code'
    | 'scanPeriodS'
    | 'standard'
    | 'heatingCurve'
    | 'pressureTargetPa'
    | 'pressureTolerancePa'
    | 'watchEmails'
    | 'webhookUrl'
    | 'webhookSecret'
  >
>;

/** The body's fields by their entity names; a field not given stays undefined (PATCH leaves it). */
export const fromFurnaceDto = (b: FurnaceCreateDto | FurnaceUpdateDto): FurnaceInput => ({
  name: b.name,
  code: b.code,
  scanPeriodS: b.scan_period_s,
  standard: b.standard,
  heatingCurve: b.heating_curve,
  pressureTargetPa: b.pressure_target_pa,
  pressureTolerancePa: b.pressure_tolerance_pa,
  watchEmails: b.watch_emails === undefined ? undefined : [...new Set(b.watch_emails)],
  webhookUrl: b.webhook_url,
  webhookSecret: b.webhook_secret,
});
