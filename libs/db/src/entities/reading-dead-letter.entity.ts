import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A DAQ message the ingest refused, kept so that an operator can see what the DAQ sent. The table
 * is bounded: the ingest deletes the oldest rows beyond its limit, and keeps at most the first
 * 8 KiB of each payload. No foreign key: messages for unknown researches are kept too.
 */
@Entity('reading_dead_letter')
export class ReadingDeadLetterEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  receivedAt!: Date;

  @Column({ type: 'varchar', length: 512 })
  topic!: string;

  /** The research named by the topic, when the topic named one. */
  @Column({ type: 'uuid', nullable: true })
  researchId!: string | null;

  /** malformed_json, invalid_payload, too_many_channels, too_large, unknown_research, bad_topic. */
  @Column({ type: 'varchar', length: 32 })
  reason!: string;

  /** What was wrong, naming the field. */
  @Column({ type: 'varchar', length: 1024 })
  detail!: string;

  /** The raw payload (its first 8 KiB). */
  @Column({ type: 'bytea' })
  payload!: Buffer;

  /** Size of the whole payload, bytes. */
  @Column({ type: 'integer' })
  payloadBytes!: number;
}
