import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { FurnaceEntity } from './furnace.entity';

/**
 * A frame of a furnace's DAQ (topic `lab/{code}/data`) that no test on the furnace was scheduled for at its time: the
 * furnace's unassigned readings (docs/behaviour.md, "Furnaces"), kept until staff attach them to a test. The values
 * are stored as `reading` stores them. The key is (furnace, time): a frame redelivered by the broker never makes a
 * second row (first writer wins, as in `reading`).
 */
@Entity('furnace_reading')
export class FurnaceReadingEntity {
  @PrimaryColumn({ type: 'uuid' })
  furnaceId!: string;

  // A furnace with readings is not deleted (they are data no test holds yet).
  @ManyToOne(() => FurnaceEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'furnace_id' })
  furnace?: FurnaceEntity;

  /** The frame's time: the DAQ's clock (`ts` of the payload) when it sent one, else when the ingest received it. */
  @PrimaryColumn({ type: 'timestamptz' })
  time!: Date;

  /** The payload's `time`: seconds since the DAQ's test started (negative before ignition); a reading's `time` once attached. */
  @Column({ type: 'double precision' })
  daqTime!: number;

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

  /** °C; element i is thermo_id i + 1, as in `reading`. */
  @Column({ type: 'real', array: true, nullable: true })
  thermocouples!: (number | null)[] | null;

  /** thermo_ids whose channel read out of range; null when none. */
  @Column({ type: 'smallint', array: true, nullable: true })
  faults!: number[] | null;

  /** When the ingest received the frame (its wall clock). */
  @Column({ type: 'timestamptz', nullable: true })
  receivedAt!: Date | null;
}
