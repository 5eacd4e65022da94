import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ResearchEntity } from './research.entity';

/**
 * A single-use ticket to open one research's live stream, valid for seconds. The ticket itself is
 * never stored: `id` is its SHA-256. It carries who asked (a user, or a client's e-mail record) so
 * the stream can be closed when that access is revoked.
 */
@Entity('stream_ticket')
export class StreamTicketEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id!: string;

  /** The research whose stream it opens; null: the lab overview's (staff only). */
  @Column({ type: 'uuid', nullable: true })
  researchId!: string | null;

  @ManyToOne(() => ResearchEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'research_id' })
  research?: ResearchEntity;

  /** The staff user who asked, or null for a client. */
  @Column({ type: 'uuid', nullable: true })
  userId!: string | null;

  /** The client's e-mail record (access code), or null for staff. */
  @Column({ type: 'uuid', nullable: true })
  emailId!: string | null;

  @Index('IDX_stream_ticket_expires_at')
  @Column({ type: 'timestamptz' })
  expiresAt!: Date;

  /** When the credential the ticket was bought with expires: the stream closes then. */
  @Column({ type: 'timestamptz' })
  credentialExpiresAt!: Date;
}
