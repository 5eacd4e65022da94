import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One change to the permanent record of a test, or to a user's rights: who, when, what, the values before
 * and after (docs/behaviour.md, "The audit trail"). Append-only in the database itself: a trigger refuses
 * UPDATE, DELETE and TRUNCATE on the table (migration AuditTrail). No foreign key to the research: the trail
 * outlives what it describes.
 */
@Entity('audit_entry')
@Index('IDX_audit_entry_research', ['researchId', 'id'])
@Index('IDX_audit_entry_actor', ['actor', 'id'])
export class AuditEntryEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at!: Date;

  /** E-mail of who made the change; null: the system itself (e.g. a scheduled task). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  actor!: string | null;

  /** The test it concerns; null for a change to a user. */
  @Column({ type: 'uuid', nullable: true })
  researchId!: string | null;

  /** What was changed: research, profile, t0, thermo_config, exclusion, observation, email, url, drawing, user, review… */
  @Column({ type: 'varchar', length: 64 })
  entity!: string;

  /** The changed row's id, when it has one. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  entityId!: string | null;

  /** create | update | delete | review | approve | reopen | archive | … */
  @Column({ type: 'varchar', length: 32 })
  action!: string;

  /** The values before the change (null for a creation). */
  @Column({ type: 'jsonb', nullable: true })
  before!: object | null;

  /** The values after it (null for a deletion). */
  @Column({ type: 'jsonb', nullable: true })
  after!: object | null;
}
