import { ApiProperty } from '@nestjs/swagger';
import { ALARM_KINDS, type AlarmView } from '@furnace/contracts';

/** An alarm of a test (docs/behaviour.md, "Alarms"). */
export class AlarmDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) research_id!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) furnace_id!: string | null;
  @ApiProperty({ enum: ALARM_KINDS }) kind!: AlarmView['kind'];
  @ApiProperty({ description: "A thermocouple's id, a criterion; '' for the test as a whole" }) subject!: string;
  @ApiProperty({ format: 'date-time' }) raised_at!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'What raised it: the value and its limit, the newest frame, …',
  })
  details!: Record<string, unknown>;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) acknowledged_at!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'E-mail of who acknowledged it' })
  acknowledged_by!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) cleared_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_notified_at!: string | null;
  @ApiProperty({ description: 'Messages sent: the first and each repeat' }) notify_count!: number;
}

export class AlarmsDto {
  @ApiProperty({ type: [AlarmDto] }) data!: AlarmDto[];
  @ApiProperty() count!: number;
}
