import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { REPORT_LANGS, type ReportLang } from './report-text';

export class ReportQueryDto {
  @ApiPropertyOptional({ description: 'Language of the report: Polish (default) or English.', enum: REPORT_LANGS, default: 'pl' })
  @IsOptional()
  @IsIn(REPORT_LANGS, { message: `lang must be one of ${REPORT_LANGS.join(', ')}` })
  lang: ReportLang = 'pl';

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'The document as issued with this revision of the test, byte for byte (404 when the test has no such revision). Without it an approved test gets its revision\'s issued document, any other a document made now.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'revision must be a whole number, 1 or more' })
  @Min(1, { message: 'revision must be a whole number, 1 or more' })
  @Max(1_000_000, { message: 'revision must be a whole number, 1 or more' })
  revision?: number;
}
