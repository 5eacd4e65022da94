import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ResearchEntity } from './research.entity';

/** A camera stream link of a research. */
@Entity('research_url')
export class ResearchUrlEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index('IDX_research_url_research_id')
  @Column({ type: 'uuid' })
  researchId!: string;

  @ManyToOne(() => ResearchEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'research_id' })
  research?: ResearchEntity;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
