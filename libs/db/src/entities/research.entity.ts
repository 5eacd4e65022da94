import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity('research')
export class ResearchEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Index('IDX_research_start_at')
  @Column({ type: 'timestamptz' })
  startAt!: Date;

  @Column({ type: 'timestamptz' })
  endAt!: Date;

  @Column({ type: 'boolean', default: false })
  isRadiance!: boolean;

  /** "furnance" is the spelling of the product's API contract. */
  @Column({ type: 'boolean', default: false })
  isFurnance!: boolean;

  @Column({ type: 'boolean', default: false })
  isPressure!: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
