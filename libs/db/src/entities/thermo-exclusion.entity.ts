import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ResearchEntity } from './research.entity';

/** A thermocouple that staff left out of the criteria from a time of the test on, and why. */
@Entity('thermo_exclusion')
export class ThermoExclusionEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index('IDX_thermo_exclusion_research_id')
  @Column({ type: 'uuid' })
  researchId!: string;

  @ManyToOne(() => ResearchEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'research_id' })
  research?: ResearchEntity;

  /** Channel number: the DAQ's thermocouples_out[thermoId - 1]. */
  @Column({ type: 'integer' })
  thermoId!: number;

  /** Seconds since ignition from which it no longer counts. */
  @Column({ type: 'double precision' })
  fromTime!: number;

  @Column({ type: 'varchar', length: 500 })
  reason!: string;

  /** E-mail of the member of staff who excluded it. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  createdBy!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
