import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import type { ResearchEmailEntity } from '@furnace/db';
import { EmailField } from '../core/validators';

export class EmailRecordDto {
  @ApiProperty({ format: 'uuid', description: "The client's access code (?code= in the invitation link)" }) id!: string;
  @ApiProperty({ format: 'uuid' }) research_id!: string;
  @ApiProperty({ format: 'email' }) email!: string;
  @ApiProperty({ description: 'The SMTP server accepted the invitation' }) is_sent!: boolean;
}

export class EmailRecordsDto {
  @ApiProperty({ type: [EmailRecordDto] }) data!: EmailRecordDto[];
}

export const toEmailDto = (e: ResearchEmailEntity): EmailRecordDto => ({
  id: e.id,
  research_id: e.researchId,
  email: e.email,
  is_sent: e.isSent,
});

export class EmailCreateDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() research_id!: string;
  @EmailField() email!: string;
}

export class EmailUpdateDto {
  @EmailField() email!: string;
}
