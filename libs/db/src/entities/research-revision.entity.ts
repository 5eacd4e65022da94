import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ResearchEntity } from './research.entity';

/**
 * One approval of a research (docs/behaviour.md, "The permanent record"): its number, who reviewed and approved it
 * and when, and the SHA-256 of the test's raw data as it was approved. The documents issued with it are
 * research_document's rows. A reopened test keeps its revisions; its next approval is the next number.
 */
@Entity('research_revision')
export class ResearchRevisionEntity {
  @PrimaryColumn({ type: 'uuid' })
  researchId!: string;

  @ManyToOne(() => ResearchEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'research_id' })
  research?: ResearchEntity;

  /** 1, 2, … in the order of approval. */
  @PrimaryColumn({ type: 'integer' })
  revision!: number;

  @Column({ type: 'varchar', length: 255 })
  reviewedBy!: string;

  @Column({ type: 'timestamptz' })
  reviewedAt!: Date;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  reviewComment!: string | null;

  @Column({ type: 'varchar', length: 255 })
  approvedBy!: string;

  @Column({ type: 'timestamptz' })
  approvedAt!: Date;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  approvalComment!: string | null;

  /** SHA-256 (hex) of the raw data as approved (rawDataHash in libs/api-server/src/review); null only while the documents are being issued. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  dataSha256!: string | null;

  /** How many readings the hash covers. */
  @Column({ type: 'integer', nullable: true })
  readings!: number | null;
}
