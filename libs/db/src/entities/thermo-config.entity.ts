import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ResearchEntity } from './research.entity';

/**
 * A photo of the specimen with its thermocouple config file. Both files live in the database, so
 * several API instances need no shared volume.
 */
@Entity('thermo_config')
export class ThermoConfigEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index('IDX_thermo_config_research_id')
  @Column({ type: 'uuid' })
  researchId!: string;

  @ManyToOne(() => ResearchEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'research_id' })
  research?: ResearchEntity;

  @Column({ type: 'varchar', length: 255 })
  imageFilename!: string;

  @Column({ type: 'varchar', length: 32 })
  imageMime!: string;

  @Column({ type: 'integer' })
  imageWidth!: number;

  @Column({ type: 'integer' })
  imageHeight!: number;

  /** sha256 of the image bytes, hex: the ETag of the image. */
  @Column({ type: 'varchar', length: 64 })
  imageSha256!: string;

  @Column({ type: 'bytea', select: false })
  imageData!: Buffer;

  @Column({ type: 'varchar', length: 255 })
  configFilename!: string;

  @Column({ type: 'bytea', select: false })
  configData!: Buffer;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
