import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ResearchEntity } from './research.entity';

/**
 * The fire-test criteria of one research as the server keeps them (docs/architecture.md, "The
 * criteria: computed once, kept, pushed"): the engine's accumulated state up to the frame it covers,
 * the views it gives staff and clients, and which API instance keeps it up to date (a lease).
 */
@Entity('criteria_state')
export class CriteriaStateEntity {
  @PrimaryColumn({ type: 'uuid' })
  researchId!: string;

  @OneToOne(() => ResearchEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'research_id' })
  research?: ResearchEntity;

  /** SHA-256 of the engine's inputs (CriteriaEngine.inputKey): a state of other inputs is recomputed. */
  @Column({ type: 'varchar', length: 64 })
  inputHash!: string;

  /** Time (s since ignition) of the newest frame the state includes; null before any. */
  @Column({ type: 'double precision', nullable: true })
  coveredTime!: number | null;

  /** Frames the state includes. */
  @Column({ type: 'integer' })
  frameCount!: number;

  /** CriteriaEngineState as JSON. */
  @Column({ type: 'text' })
  state!: string;

  /** SHA-256 naming what the views were computed from (the inputs, the observations, whether the test had ended). */
  @Column({ type: 'varchar', length: 64 })
  viewHash!: string;

  /** The CriteriaView staff see. */
  @Column({ type: 'jsonb' })
  staffView!: unknown;

  /** The CriteriaView the research's clients see (only the observations visible to them count). */
  @Column({ type: 'jsonb' })
  clientView!: unknown;

  /** The API instance that keeps this state up to date, while its lease runs; null: nobody. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  owner!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  leaseUntil!: Date | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
