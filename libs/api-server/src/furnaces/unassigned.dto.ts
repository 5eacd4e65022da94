import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsDateString, IsUUID, Matches } from 'class-validator';

/** An ISO 8601 date-time that says its time zone. */
const DateTimeWithZone = () =>
  applyDecorators(
    IsDateString({ strict: true }, { message: '$property must be an ISO 8601 date-time' }),
    Matches(/(Z|[+-]\d{2}:?\d{2})$/, { message: '$property must include a time zone (Z or ±hh:mm)' }),
  );

/** A run of a furnace's unassigned readings: none is more than 10 scan periods after the one before it. */
export class UnassignedRangeDto {
  @ApiProperty({ format: 'date-time', description: 'Time of its first reading.' }) from!: string;
  @ApiProperty({ format: 'date-time', description: 'Time of its last reading.' }) to!: string;
  @ApiProperty({ description: 'How many readings it holds.' }) frames!: number;
}

export class UnassignedRangesDto {
  @ApiProperty({ type: [UnassignedRangeDto] }) data!: UnassignedRangeDto[];
  @ApiProperty({ description: 'Unassigned readings in all.' }) frames!: number;
  @ApiProperty({ description: 'Seconds between two readings that start a new range (10 scan periods).' })
  gap_s!: number;
}

export class AttachUnassignedDto {
  @ApiProperty({ format: 'uuid', description: 'The test, scheduled on this furnace, that receives the readings.' })
  @IsUUID('all', { message: 'research_id must be a UUID' })
  research_id!: string;
  @ApiProperty({ format: 'date-time', description: 'Readings from this time (inclusive).' })
  @DateTimeWithZone()
  from!: string;
  @ApiProperty({ format: 'date-time', description: 'Readings up to this time (inclusive).' })
  @DateTimeWithZone()
  to!: string;
}

export class AttachedDto {
  @ApiProperty({ description: 'Readings attached to the test.' }) attached!: number;
  @ApiProperty({
    description:
      'Readings of the range within the window that were not attached because the test already has a reading at their time: they stay unassigned.',
  })
  skipped!: number;
  @ApiProperty({ example: 'Attached 120 readings to "Ściana EI 60"; 2 skipped' }) message!: string;
}
