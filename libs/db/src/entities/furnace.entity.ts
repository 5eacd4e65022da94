import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * A furnace of the lab (docs/behaviour.md, "Furnaces"): the tests scheduled on it never overlap (an
 * exclusion constraint on research), and its DAQ's defaults for a new test's profile live here.
 */
@Entity('furnace')
@Check('CHK_furnace_scan_period', '"scan_period_s" > 0 AND "scan_period_s" <= 3600')
@Check('CHK_furnace_code', `"code" ~ '^[a-z0-9][a-z0-9-]{0,15}$'`)
export class FurnaceEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** Lowercase letters, digits and hyphens, unique: the furnace's part of its DAQ topic. */
  @Index('UQ_furnace_code', { unique: true })
  @Column({ type: 'varchar', length: 16 })
  code!: string;

  /** Seconds between two frames of the furnace's DAQ. */
  @Column({ type: 'real', default: 1 })
  scanPeriodS!: number;

  // The profile a new test on this furnace starts from (wire names of @furnace/contracts).
  @Column({ type: 'varchar', length: 16, default: 'EN_1363_1' })
  standard!: string;

  @Column({ type: 'varchar', length: 16, default: 'iso834' })
  heatingCurve!: string;

  @Column({ type: 'real', nullable: true })
  pressureTargetPa!: number | null;

  @Column({ type: 'real', nullable: true })
  pressureTolerancePa!: number | null;

  /** Who is told of the alarms of a test on this furnace, besides its responsible engineer (docs/behaviour.md, "Alarms"). */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  watchEmails!: string[];

  /** Where an alarm is POSTed, signed with webhookSecret; null: no webhook. */
  @Column({ type: 'varchar', length: 2000, nullable: true })
  webhookUrl!: string | null;

  /** The HMAC key of the webhook's signature; never shown back. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  webhookSecret!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
