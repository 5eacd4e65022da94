import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { DAQ_BOUNDS, MAX_CHANNELS, type ObservationKind } from '@furnace/contracts';
import { OBSERVATION_KINDS } from '@furnace/criteria';
import type { ObservationEntity, ThermoExclusionEntity } from '@furnace/db';
import { OptionalNotNull } from '../core/validators';

/** What staff can record with one click: the first four are integrity failures (the first of them ends E). */
const OBSERVATION_KIND_IDS = OBSERVATION_KINDS;
type ObservationKindId = ObservationKind;
const MAX_NOTE_LENGTH = 2000;
const MAX_REASON_LENGTH = 500;

const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
const finite = { allowNaN: false, allowInfinity: false };
const TIME = DAQ_BOUNDS.time;

export class ObservationDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) research_id!: string;
  @ApiProperty({ description: 'Seconds since ignition' }) time!: number;
  @ApiProperty({ enum: OBSERVATION_KIND_IDS }) kind!: ObservationKindId;
  @ApiProperty({ type: String, nullable: true }) note!: string | null;
  @ApiProperty({ description: 'Shown to the invited clients' }) visible_to_clients!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'E-mail of who recorded it (null for clients)' })
  created_by!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class ObservationsDto {
  @ApiProperty({ type: [ObservationDto], description: 'In time order' }) data!: ObservationDto[];
}

/** `forViewer`: a client does not learn which member of staff recorded it. */
export const toObservationDto = (o: ObservationEntity, forViewer = false): ObservationDto => ({
  id: o.id,
  research_id: o.researchId,
  time: o.time,
  kind: o.kind as ObservationKindId,
  note: o.note,
  visible_to_clients: o.visibleToClients,
  created_by: forViewer ? null : o.createdBy,
  created_at: o.createdAt.toISOString(),
});

export class ObservationCreateDto {
  @ApiPropertyOptional({
    minimum: TIME.min,
    maximum: TIME.max,
    description: "Seconds since ignition; default: the newest stored frame's time",
  })
  @OptionalNotNull()
  @IsNumber(finite, { message: 'time must be a number of seconds' })
  @Min(TIME.min, { message: `time must be at least ${TIME.min} s` })
  @Max(TIME.max, { message: `time must be at most ${TIME.max} s` })
  time?: number;

  @ApiProperty({ enum: OBSERVATION_KIND_IDS })
  @IsIn(OBSERVATION_KIND_IDS, { message: `kind must be one of ${OBSERVATION_KIND_IDS.join(', ')}` })
  kind!: ObservationKindId;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_NOTE_LENGTH,
    description: 'Required for kind note',
  })
  @IsOptional()
  @trim
  @IsString()
  @MaxLength(MAX_NOTE_LENGTH)
  note?: string | null;

  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @IsBoolean()
  visible_to_clients?: boolean;
}

export class ObservationUpdateDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_NOTE_LENGTH })
  @IsOptional()
  @trim
  @IsString()
  @MaxLength(MAX_NOTE_LENGTH)
  note?: string | null;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  visible_to_clients?: boolean;
}

export class ThermoExclusionDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) research_id!: string;
  @ApiProperty({ type: 'integer', description: 'The channel: thermocouples_out[thermo_id - 1]' }) thermo_id!: number;
  @ApiProperty({ description: 'Seconds since ignition from which it no longer counts' }) from_time!: number;
  @ApiProperty() reason!: string;
  @ApiProperty({ type: String, nullable: true, description: 'E-mail of who excluded it (null for clients)' })
  created_by!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class ThermoExclusionsDto {
  @ApiProperty({ type: [ThermoExclusionDto] }) data!: ThermoExclusionDto[];
}

export const toThermoExclusionDto = (e: ThermoExclusionEntity, forViewer = false): ThermoExclusionDto => ({
  id: e.id,
  research_id: e.researchId,
  thermo_id: e.thermoId,
  from_time: e.fromTime,
  reason: e.reason,
  created_by: forViewer ? null : e.createdBy,
  created_at: e.createdAt.toISOString(),
});

export class ThermoExclusionCreateDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_CHANNELS })
  @IsInt({ message: 'thermo_id must be a whole number' })
  @Min(1, { message: 'thermo_id must be at least 1' })
  @Max(MAX_CHANNELS, { message: `thermo_id must be at most ${MAX_CHANNELS}` })
  thermo_id!: number;

  @ApiProperty({ minimum: TIME.min, maximum: TIME.max, description: 'Seconds since ignition' })
  @IsNumber(finite, { message: 'from_time must be a number of seconds' })
  @Min(TIME.min, { message: `from_time must be at least ${TIME.min} s` })
  @Max(TIME.max, { message: `from_time must be at most ${TIME.max} s` })
  from_time!: number;

  @ApiProperty({ maxLength: MAX_REASON_LENGTH })
  @trim
  @IsString()
  @IsNotEmpty({ message: 'reason must not be empty' })
  @MaxLength(MAX_REASON_LENGTH)
  reason!: string;
}
