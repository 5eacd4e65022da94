import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { FurnaceEntity } from './furnace.entity';

/**
 * The credential a furnace's DAQ signs in to the MQTT broker with (docs/behaviour.md, "DAQ credentials"):
 * one per furnace, replaced when a superuser rotates it. Only the password's hash is kept
 * (hashDaqPassword, scrypt); the password itself is shown once, when it is issued.
 */
@Entity('furnace_daq_credential')
export class FurnaceDaqCredentialEntity {
  @PrimaryColumn('uuid')
  furnaceId!: string;

  @OneToOne(() => FurnaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'furnace_id' })
  furnace?: FurnaceEntity;

  /** `daq-{furnace code}` when issued; the broker looks the credential up by it. */
  @Index('UQ_furnace_daq_credential_username', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  username!: string;

  /** `scrypt$N$r$p$salt$hash` (base64url), see hashDaqPassword. */
  @Column({ type: 'varchar', length: 255 })
  passwordHash!: string;

  @Column({ type: 'timestamptz' })
  issuedAt!: Date;
}
