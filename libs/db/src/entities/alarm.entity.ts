import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { FurnaceEntity } from './furnace.entity';
import { ResearchEntity } from './research.entity';

/**
 * An alarm the server raised for a running test (docs/behaviour.md, "Alarms"): raised, maybe acknowledged, and
 * cleared when its condition ends or the test does. At most one open alarm per (research, kind, subject): the
 * partial unique index makes two API instances racing to raise it insert one row.
 */
@Entity('alarm')
@Index('UQ_alarm_open', ['researchId', 'kind', 'subject'], { unique: true, where: '"cleared_at" IS NULL' })
@Index('IDX_alarm_research_raised', ['researchId', 'raisedAt'])
@Index('IDX_alarm_notify_due', ['nextNotifyAt'], { where: '"cleared_at" IS NULL AND "next_notify_at" IS NOT NULL' })
export class AlarmEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  researchId!: string;

  @ManyToOne(() => ResearchEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'research_id' })
  research?: ResearchEntity;

  /** The furnace the test ran on when the alarm was raised; null: none. */
  @Column({ type: 'uuid', nullable: true })
  furnaceId!: string | null;

  @ManyToOne(() => FurnaceEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'furnace_id' })
  furnace?: FurnaceEntity;

  /** silence | thermocouple | deviation | pressure | forecast | failure | overrun (contracts' ALARM_KINDS). */
  @Column({ type: 'varchar', length: 16 })
  kind!: string;

  /** What of the test it concerns: a thermocouple's id, a criterion; '' for the test as a whole. */
  @Column({ type: 'varchar', length: 64, default: '' })
  subject!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  raisedAt!: Date;

  /** The value and the limit that raised it (contracts' AlarmDetails). */
  @Column({ type: 'jsonb' })
  details!: Record<string, unknown>;

  @Column({ type: 'timestamptz', nullable: true })
  acknowledgedAt!: Date | null;

  /** E-mail of who acknowledged it. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  acknowledgedBy!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  clearedAt!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastNotifiedAt!: Date | null;

  /** When the next message is due; null: none (acknowledged or cleared). Claimed with a conditional UPDATE. */
  @Column({ type: 'timestamptz', nullable: true })
  nextNotifyAt!: Date | null;

  /** Messages sent (the first and each repeat). */
  @Column({ type: 'integer', default: 0 })
  notifyCount!: number;
}
