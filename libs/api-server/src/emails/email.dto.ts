import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import type { ResearchEmailEntity } from '@furnace/db';
import { DEFAULT_LANGUAGE, isLanguage, type Language, LANGUAGES } from '@furnace/text';
import { EmailField, LanguageField } from '../core/validators';

export class EmailRecordDto {
  @ApiProperty({ format: 'uuid', description: "The client's access code (?code= in the invitation link)" }) id!: string;
  @ApiProperty({ format: 'uuid' }) research_id!: string;
  @ApiProperty({ format: 'email' }) email!: string;
  @ApiProperty({ enum: LANGUAGES, description: "The language of the client's invitation" }) lang!: Language;
  @ApiProperty({ description: 'The SMTP server accepted the invitation' }) is_sent!: boolean;
}

export class EmailRecordsDto {
  @ApiProperty({ type: [EmailRecordDto] }) data!: EmailRecordDto[];
}

export const toEmailDto = (e: ResearchEmailEntity): EmailRecordDto => ({
  id: e.id,
  research_id: e.researchId,
  email: e.email,
  lang: emailLanguage(e),
  is_sent: e.isSent,
});

/** The record's language (the column allows only pl and en). */
export const emailLanguage = (e: ResearchEmailEntity): Language => (isLanguage(e.lang) ? e.lang : DEFAULT_LANGUAGE);

export class EmailCreateDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() research_id!: string;
  @EmailField() email!: string;
  @LanguageField("Language of the client's invitation (subject and body): Polish (default) or English.")
  lang: Language = DEFAULT_LANGUAGE;
}

export class EmailUpdateDto {
  @EmailField() email!: string;
}
