import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AlarmEntity } from './alarm.entity';

/** One attempt to deliver an alarm's message: an e-mail or a webhook call (docs/behaviour.md, "Alarms"). */
@Entity('alarm_delivery')
@Index('IDX_alarm_delivery_alarm', ['alarmId', 'at'])
export class AlarmDeliveryEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  alarmId!: string;

  @ManyToOne(() => AlarmEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'alarm_id' })
  alarm?: AlarmEntity;

  /** email | webhook. */
  @Column({ type: 'varchar', length: 8 })
  channel!: string;

  /** The address or the URL. */
  @Column({ type: 'varchar', length: 2000 })
  target!: string;

  /** Which message of the alarm (1: the first, 2…: repeats). */
  @Column({ type: 'integer', default: 1 })
  message!: number;

  /** 1, 2, …: a webhook is retried with backoff. */
  @Column({ type: 'integer' })
  attempt!: number;

  /** sent | failed. */
  @Column({ type: 'varchar', length: 8 })
  status!: string;

  /** Why it failed (the HTTP status, the SMTP server's answer); null when sent. */
  @Column({ type: 'varchar', length: 2000, nullable: true })
  error!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at!: Date;
}
