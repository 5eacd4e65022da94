import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import type { FurnaceDaqCredentialEntity, FurnaceEntity } from '@furnace/db';
import { FURNACE_CODE_PATTERN } from '@furnace/contracts';
import { HEATING_CURVE_IDS, TEST_STANDARD_IDS } from '@furnace/criteria';
import { OptionalNotNull } from '../core/validators';

const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
const finite = { allowNaN: false, allowInfinity: false };
/** One scan an hour is the slowest DAQ worth calling live; the DAQ contract's frames come every second or faster. */
const MAX_SCAN_PERIOD_S = 3600;
const MAX_PRESSURE_PA = 1_000;

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

export const toFurnaceDto = (f: FurnaceEntity, credential: FurnaceDaqCredentialEntity | null): FurnaceDto => ({
  id: f.id,
  name: f.name,
  code: f.code,
  scan_period_s: f.scanPeriodS,
  standard: f.standard,
  heating_curve: f.heatingCurve,
  pressure_target_pa: f.pressureTargetPa,
  pressure_tolerance_pa: f.pressureTolerancePa,
  created_at: f.createdAt.toISOString(),
  updated_at: f.updatedAt.toISOString(),
  daq_credential: credential && { username: credential.username, issued_at: credential.issuedAt.toISOString() },
});

export type FurnaceInput = Partial<
  Pick<
    FurnaceEntity,
    'name' | 'code' | 'scanPeriodS' | 'standard' | 'heatingCurve' | 'pressureTargetPa' | 'pressureTolerancePa'
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
});
