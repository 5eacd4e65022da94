import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ResearchEntity } from './research.entity';

/** Something staff saw during a test, at a time of the test (integrity failures, notes, the stop). */
@Entity('observation')
@Index('IDX_observation_research_id_time', ['researchId', 'time'])
export class ObservationEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  researchId!: string;

  @ManyToOne(() => ResearchEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'research_id' })
  research?: ResearchEntity;

  /** Seconds since ignition (the frames' `time`). */
  @Column({ type: 'double precision' })
  time!: number;

  /** cotton_pad | gap_6mm | gap_25mm | sustained_flaming | note | test_stopped. */
  @Column({ type: 'varchar', length: 32 })
  kind!: string;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  note!: string | null;

  @Column({ type: 'boolean', default: false })
  visibleToClients!: boolean;

  /** E-mail of the member of staff who recorded it. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  createdBy!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
