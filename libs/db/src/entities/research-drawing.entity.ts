import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ResearchEntity } from './research.entity';

/**
 * A drawing of a research's specimen (a PDF, or a PNG or JPEG image), attached to its test report.
 * Kept in the database like the thermocouple photos, so that API instances share no volume.
 */
@Entity('research_drawing')
export class ResearchDrawingEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index('IDX_research_drawing_research_id')
  @Column({ type: 'uuid' })
  researchId!: string;

  @ManyToOne(() => ResearchEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'research_id' })
  research?: ResearchEntity;

  /** The name it was uploaded under, made printable; only ever shown. */
  @Column({ type: 'varchar', length: 255 })
  filename!: string;

  /** application/pdf | image/png | image/jpeg: what its bytes are, never what the upload said. */
  @Column({ type: 'varchar', length: 32 })
  mime!: string;

  /** Bytes of the stored file (an image's after it was encoded again). */
  @Column({ type: 'integer' })
  size!: number;

  /** sha256 of the stored bytes, hex. */
  @Column({ type: 'varchar', length: 64 })
  sha256!: string;

  @Column({ type: 'bytea', select: false })
  data!: Buffer;

  /** E-mail of the member of staff who uploaded it. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  createdBy!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
