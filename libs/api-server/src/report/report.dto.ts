import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { REPORT_LANGS, type ReportLang } from './report-text';

export class ReportQueryDto {
  @ApiPropertyOptional({ description: 'Language of the report: Polish (default) or English.', enum: REPORT_LANGS, default: 'pl' })
  @IsOptional()
  @IsIn(REPORT_LANGS, { message: `lang must be one of ${REPORT_LANGS.join(', ')}` })
  lang: ReportLang = 'pl';
}
