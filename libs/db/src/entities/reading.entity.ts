import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ResearchEntity } from './research.entity';

/**
 * One DAQ frame of a research: a row per frame, the thermocouples as one real[] (index i is
 * thermo_id i + 1), so a frame is written, read and exported as a unit and a test of 6 h at 1 Hz
 * with 60 channels is ~22 000 rows, not 1.3 million.
 *
 * The key is (research, time): a frame redelivered by the broker never makes a second row
 * (the ingest inserts with ON CONFLICT DO NOTHING). Where TimescaleDB is installed the migration
 * turns the table into a hypertable on `ts` and, because TimescaleDB requires every unique index to
 * contain the partitioning column, widens the key to (research_id, time, ts); `ts` is computed from
 * (research, time), so the wider key is unique exactly when the narrow one is.
 */
@Entity('reading')
@Index('IDX_reading_ts_brin', ['ts'], { type: 'brin' })
// The few frames with a faulted channel, found without reading the rest (the history's `faults`).
@Index('IDX_reading_faults', ['researchId', 'time'], { where: '"faults" IS NOT NULL' })
export class ReadingEntity {
  @PrimaryColumn({ type: 'uuid' })
  researchId!: string;

  @ManyToOne(() => ResearchEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'research_id' })
  research?: ResearchEntity;

  /** Seconds since the test started (the DAQ's `time`). */
  @PrimaryColumn({ type: 'double precision' })
  time!: number;

  /** research.start_at + time when the frame was stored: the absolute time of the reading. */
  @Column({ type: 'timestamptz' })
  ts!: Date;

  /** The DAQ's own clock (`ts` of the payload), when it sent one. */
  @Column({ type: 'timestamptz', nullable: true })
  daqTs!: Date | null;

  /** kW/m². */
  @Column({ type: 'real', nullable: true })
  radiance!: number | null;

  /** Pa. */
  @Column({ type: 'real', nullable: true })
  pressure!: number | null;

  /** Mean furnace temperature, °C. */
  @Column({ type: 'real', nullable: true })
  pk!: number | null;

  /** °C; element i is thermo_id i + 1; null elements are channels without a reading; null when the frame had none. */
  @Column({ type: 'real', array: true, nullable: true })
  thermocouples!: (number | null)[] | null;

  /** thermo_ids whose channel read out of range (a broken thermocouple; the value is null); null when none. */
  @Column({ type: 'smallint', array: true, nullable: true })
  faults!: number[] | null;

  /** When the ingest received the frame (its wall clock): with daqTs, the history's time of day. */
  @Column({ type: 'timestamptz', nullable: true })
  receivedAt!: Date | null;
}
