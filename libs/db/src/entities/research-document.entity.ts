import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ResearchRevisionEntity } from './research-revision.entity';

/**
 * A document issued with a revision (docs/behaviour.md, "The permanent record"): the test report or the
 * classification report in one language, made once at the approval and kept byte for byte. Downloading it again
 * returns these bytes, whatever changed after a reopening.
 */
@Entity('research_document')
@Index('UQ_research_document_revision_kind_lang', ['researchId', 'revision', 'kind', 'lang'], { unique: true })
export class ResearchDocumentEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  researchId!: string;

  @Column({ type: 'integer' })
  revision!: number;

  @ManyToOne(() => ResearchRevisionEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'research_id', referencedColumnName: 'researchId' },
    { name: 'revision', referencedColumnName: 'revision' },
  ])
  issuedWith?: ResearchRevisionEntity;

  /** report | classification. */
  @Column({ type: 'varchar', length: 16 })
  kind!: string;

  /** pl | en. */
  @Column({ type: 'varchar', length: 2 })
  lang!: string;

  /** The name it is downloaded under. */
  @Column({ type: 'varchar', length: 255 })
  filename!: string;

  @Column({ type: 'integer' })
  size!: number;

  /** SHA-256 (hex) of the stored bytes. */
  @Column({ type: 'varchar', length: 64 })
  sha256!: string;

  @Column({ type: 'bytea', select: false })
  data!: Buffer;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
