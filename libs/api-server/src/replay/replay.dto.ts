import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsNumber, IsOptional, Max, Min } from 'class-validator';
import { DAQ_BOUNDS } from '@furnace/contracts';

/** Most frames one window may hold: ~1 000 × 300 channels is ~2 MB of JSON. */
export const MAX_REPLAY_FRAMES = 1_000;

export class ReplayFramesQueryDto {
  @ApiPropertyOptional({
    description:
      'Start of the window, seconds since the test started (inclusive; negative: before ignition). Default: the first stored frame.',
    example: 600,
  })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(DAQ_BOUNDS.time.min)
  @Max(DAQ_BOUNDS.time.max)
  from?: number;

  @ApiPropertyOptional({
    description: `End of the window, seconds since the test started (inclusive). Default: the window ends after ${MAX_REPLAY_FRAMES} frames. A window holding more than ${MAX_REPLAY_FRAMES} frames is refused (400).`,
    example: 720,
  })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(DAQ_BOUNDS.time.min)
  @Max(DAQ_BOUNDS.time.max)
  to?: number;
}

/** One stored frame, in the shape the live stream sends it. */
export class ReplayFrameDto {
  @ApiProperty({ description: 'Seconds since the test started.' })
  time!: number;

  @ApiProperty({ type: Number, nullable: true, description: 'kW/m²' })
  radiance!: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Pa' })
  pressure!: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Mean furnace temperature, °C' })
  pk!: number | null;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'number', nullable: true },
    description: '°C; element i is thermo_id i + 1; null: no reading. Absent when the frame had no thermocouples.',
  })
  thermocouples_out?: (number | null)[];

  @ApiPropertyOptional({
    type: [Number],
    description: 'thermo_ids the ingest flagged out of range in this frame (their values are null). Absent when none.',
  })
  faults?: number[];
}

export class ReplayFramesDto {
  @ApiProperty({ format: 'uuid' })
  research_id!: string;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Time of the first stored frame of the research; null before the first.',
  })
  first_time!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Time of the latest stored frame of the research; null before the first.',
  })
  last_time!: number | null;

  @ApiProperty({ description: 'Start of the window answered, s.' })
  from!: number;

  @ApiProperty({
    description: 'End of the window answered, s: every stored frame with from ≤ time ≤ to is in `frames`.',
  })
  to!: number;

  @ApiProperty({ type: [ReplayFrameDto], description: 'The frames of the window, all channels, in time order.' })
  frames!: ReplayFrameDto[];
}
