import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
} from 'typeorm';
import { ResearchEntity } from './research.entity';

/** A client invited to watch a research. The random id is the client's access code. */
@Entity('research_email')
@Unique('UQ_research_email_research_id_email', ['researchId', 'email'])
@Check('CHK_research_email_lang', `"lang" IN ('pl', 'en')`)
export class ResearchEmailEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  researchId!: string;

  @ManyToOne(() => ResearchEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'research_id' })
  research?: ResearchEntity;

  /** Stored lower-cased. */
  @Column({ type: 'varchar', length: 255 })
  email!: string;

  /** pl | en: the language of the client's invitation, chosen by staff (docs/behaviour.md §1). */
  @Column({ type: 'varchar', length: 2, default: 'pl' })
  lang!: string;

  @Column({ type: 'boolean', default: false })
  isSent!: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  sentAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
