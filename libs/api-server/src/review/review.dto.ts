import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import type { ResearchDocumentEntity, ResearchRevisionEntity } from '@furnace/db';

const MAX_COMMENT = 2000;

/** Trimmed; an empty comment is no comment. */
const blankToNull = Transform(({ value }) =>
  typeof value === 'string' ? (value.trim() === '' ? null : value.trim()) : value,
);

/** The body of a review or an approval. */
export class ReviewCommentDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_COMMENT,
    description: 'What the reviewer or the approver wants kept with it',
  })
  @blankToNull
  @IsOptional()
  @IsString({ message: 'comment must be a text' })
  @MaxLength(MAX_COMMENT, { message: `comment must be a text of at most ${MAX_COMMENT} characters` })
  comment?: string | null;
}

/** The body of a reopening: why, required. */
export class ReopenDto {
  @ApiProperty({
    maxLength: MAX_COMMENT,
    description: 'Why the approved test is reopened (kept with the reopening and in the audit trail)',
  })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'reason must be a text' })
  @IsNotEmpty({ message: 'reason must not be empty: say why the approved test is reopened' })
  @MaxLength(MAX_COMMENT, { message: `reason must be a text of at most ${MAX_COMMENT} characters` })
  reason!: string;
}

export class IssuedDocumentDto {
  @ApiProperty({ enum: ['report', 'classification'] }) kind!: string;
  @ApiProperty({ enum: ['pl', 'en'] }) lang!: string;
  @ApiProperty({ description: 'The name it is downloaded under' }) filename!: string;
  @ApiProperty({ description: 'Bytes' }) size!: number;
  @ApiProperty({ description: 'SHA-256 of its bytes, hex' }) sha256!: string;
}

export class RevisionDto {
  @ApiProperty({ type: 'integer', description: '1, 2, … in the order of approval' }) revision!: number;
  @ApiProperty() reviewed_by!: string;
  @ApiProperty({ format: 'date-time' }) reviewed_at!: string;
  @ApiProperty({ type: String, nullable: true }) review_comment!: string | null;
  @ApiProperty() approved_by!: string;
  @ApiProperty({ format: 'date-time' }) approved_at!: string;
  @ApiProperty({ type: String, nullable: true }) approval_comment!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "SHA-256 of the test's raw data as approved (docs/behaviour.md); null while its documents are being issued",
  })
  data_sha256!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The readings the hash covers' }) readings!:
    number | null;
  @ApiProperty({
    type: [IssuedDocumentDto],
    description:
      'report.pdf and classification.pdf in Polish and English, as issued: GET …/report.pdf?revision=N&lang=…',
  })
  documents!: IssuedDocumentDto[];
}

export class RevisionsDto {
  @ApiProperty({ type: [RevisionDto], description: 'Oldest first' }) data!: RevisionDto[];
}

export const toRevisionDto = (r: ResearchRevisionEntity, documents: ResearchDocumentEntity[]): RevisionDto => ({
  revision: r.revision,
  reviewed_by: r.reviewedBy,
  reviewed_at: r.reviewedAt.toISOString(),
  review_comment: r.reviewComment,
  approved_by: r.approvedBy,
  approved_at: r.approvedAt.toISOString(),
  approval_comment: r.approvalComment,
  data_sha256: r.dataSha256,
  readings: r.readings,
  documents: documents.map((d) => ({
    kind: d.kind,
    lang: d.lang,
    filename: d.filename,
    size: d.size,
    sha256: d.sha256,
  })),
});

export class RevisionCheckDto {
  @ApiProperty({ type: 'integer' }) revision!: number;
  @ApiProperty({ type: String, nullable: true, description: 'The hash stored with the revision' }) data_sha256!:
    string | null;
  @ApiProperty({ type: 'integer', nullable: true }) readings!: number | null;
  @ApiProperty({ description: 'The stored readings still hash to what the revision was approved with' })
  matches!: boolean;
}

export class VerifyDto {
  @ApiProperty({ description: "SHA-256 of the test's raw data as stored now, hex" }) data_sha256!: string;
  @ApiProperty({ type: 'integer', description: 'The readings it covers' }) readings!: number;
  @ApiProperty({ format: 'date-time' }) computed_at!: string;
  @ApiProperty({ type: [RevisionCheckDto], description: 'Each revision, oldest first' }) revisions!: RevisionCheckDto[];
}
