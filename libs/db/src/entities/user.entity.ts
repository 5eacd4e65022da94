import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** Stored lower-cased, so uniqueness holds regardless of letter case. */
  @Column({ type: 'varchar', length: 255, unique: true })
  email!: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  fullName!: string | null;

  @Column({ type: 'varchar', length: 255 })
  hashedPassword!: string;

  @Column({ type: 'boolean', default: true })
  isActive!: boolean;

  @Column({ type: 'boolean', default: false })
  isSuperuser!: boolean;

  /**
   * Part of every access token; raising it (password changed or reset, account deactivated) makes
   * every token issued before unusable at once.
   */
  @Column({ type: 'integer', default: 0 })
  tokenVersion!: number;

  /** The first superuser created with the default password: every route but the password change answers 403 until then. */
  @Column({ type: 'boolean', default: false })
  mustChangePassword!: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
