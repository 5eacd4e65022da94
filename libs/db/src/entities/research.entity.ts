import {
  Column,
  CreateDateColumn,
  Entity,
  Exclusion,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  VirtualColumn,
} from 'typeorm';
import { FurnaceEntity } from './furnace.entity';
import { UserEntity } from './user.entity';

@Entity('research')
// Two tests never overlap on one furnace (docs/behaviour.md, "Furnaces"): [start_at, end_at) windows of the
// furnace's tests that are not archived. Needs btree_gist for the uuid's equality in a GiST index.
@Exclusion(
  'EXCL_research_furnace_window',
  `USING gist ("furnace_id" WITH =, tstzrange("start_at", "end_at") WITH &&) WHERE ("furnace_id" IS NOT NULL AND "archived_at" IS NULL)`,
)
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

  // The test profile (see README "Fire-test criteria"); values are the wire names of @furnace/contracts.

  /** EN_1363_1 | EN_1634_1 | EN_1364_1 | DIN_4102_5. */
  @Column({ type: 'varchar', length: 16, default: 'EN_1363_1' })
  standard!: string;

  /** I1 | I2 for EN_1634_1 (doors and shutters); null otherwise. */
  @Column({ type: 'varchar', length: 2, nullable: true })
  insulation!: string | null;

  /** iso834 | hydrocarbon | external | slow. */
  @Column({ type: 'varchar', length: 16, default: 'iso834' })
  heatingCurve!: string;

  /** rise (limits above T0) | absolute (limits in °C); rows older than the column keep 'absolute'. */
  @Column({ type: 'varchar', length: 8, default: 'rise' })
  criteriaBasis!: string;

  @Column({ type: 'integer', nullable: true })
  plannedDurationMin!: number | null;

  @Column({ type: 'real', nullable: true })
  pressureTargetPa!: number | null;

  @Column({ type: 'real', nullable: true })
  pressureTolerancePa!: number | null;

  /** The research's clients see its classification (and E/I/W minutes); staff always do. */
  @Column({ type: 'boolean', default: true })
  classificationToClients!: boolean;

  /** T0 set by hand (°C), instead of the one taken from the frames before ignition. */
  @Column({ type: 'double precision', nullable: true })
  t0Override!: number | null;

  /** E-mail of who set t0Override, and when. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  t0SetBy!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  t0SetAt!: Date | null;

  // What the lab's test report states besides the measurements (EN 1363-1 §12); null: not given.

  /** Who ordered the test. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  sponsor!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  manufacturer!: string | null;

  /** The specimen as tested: construction, materials, dimensions. */
  @Column({ type: 'varchar', length: 10000, nullable: true })
  specimenDescription!: string | null;

  /** Conditioning of the specimen and its moisture content. */
  @Column({ type: 'varchar', length: 2000, nullable: true })
  conditioning!: string | null;

  /** The supporting construction and how the specimen was fixed in it. */
  @Column({ type: 'varchar', length: 2000, nullable: true })
  supportingConstruction!: string | null;

  /** Which side of the specimen faced the furnace. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  exposedSide!: string | null;

  /** Ambient temperature at the start of the test, °C. */
  @Column({ type: 'real', nullable: true })
  ambientTemperatureC!: number | null;

  /** Height above the notional floor level at which the furnace pressure was measured, mm. */
  @Column({ type: 'real', nullable: true })
  pressureHeightMm!: number | null;

  /** Why the test ended (a criterion failed, the sponsor's request, the planned time reached…). */
  @Column({ type: 'varchar', length: 2000, nullable: true })
  endReason!: string | null;

  /** Deviations from the test method. */
  @Column({ type: 'varchar', length: 4000, nullable: true })
  deviations!: string | null;

  /** The test report's reference number ("LAB/2026/017"). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  reportNumber!: string | null;

  /** The test report's date, YYYY-MM-DD (a calendar date: no time zone). */
  @Column({ type: 'date', nullable: true })
  reportDate!: string | null;

  // The record's review and approval (docs/behaviour.md, "The permanent record"). Planned, running and ended follow
  // from the schedule, the frames and a test_stopped observation; reviewed and approved are these columns.

  /** E-mail of who reviewed the ended test, when, and their comment; null: not reviewed (or reopened since). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  reviewedBy!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  reviewedAt!: Date | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  reviewComment!: string | null;

  /** E-mail of who approved it (never its reviewer), when, and their comment; null: not approved. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  approvedBy!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  approvedAt!: Date | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  approvalComment!: string | null;

  /**
   * The revision (1, 2, …) the test is approved as; null while it is not approved. While it is set the record is
   * frozen: every change is refused until a superuser reopens the test. The revisions issued are research_revision's rows.
   */
  @Column({ type: 'integer', nullable: true })
  approvedRevision!: number | null;

  /** The last reopening: which superuser, when and why; null: never reopened. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  reopenedBy!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  reopenedAt!: Date | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  reopenReason!: string | null;

  /** A test_stopped observation is recorded: the test has ended whatever its schedule says. Read with the research. */
  @VirtualColumn({
    type: 'boolean',
    query: (alias) =>
      `SELECT EXISTS (SELECT 1 FROM observation o WHERE o.research_id = ${alias}.id AND o.kind = 'test_stopped')`,
  })
  testStopped?: boolean;

  /** A frame from ignition on (time ≥ 0) is stored: the test has started whatever its schedule says. Read with the research. */
  @VirtualColumn({
    type: 'boolean',
    // The first such frame by the readings' key, one index entry (docs/architecture.md, "Looking up a test's frames").
    query: (alias) =>
      `SELECT (SELECT true FROM reading g WHERE g.research_id = ${alias}.id AND g."time" >= 0 ORDER BY g."time" LIMIT 1) IS NOT NULL`,
  })
  ignited?: boolean;

  /**
   * When a superuser archived it: hidden from the lists, every row kept, still opened by its id (docs/behaviour.md,
   * "The audit trail"). Null: not archived.
   */
  @Column({ type: 'timestamptz', nullable: true })
  archivedAt!: Date | null;

  /** The furnace it is scheduled on; null for a test without one (its DAQ publishes on the research's own topic). */
  @Index('IDX_research_furnace_id')
  @Column({ type: 'uuid', nullable: true })
  furnaceId!: string | null;

  @ManyToOne(() => FurnaceEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'furnace_id' })
  furnace?: FurnaceEntity;

  /** The engineer responsible for the test: told of its alarms (docs/behaviour.md, "Alarms"); null: nobody named. */
  @Index('IDX_research_responsible_user_id')
  @Column({ type: 'uuid', nullable: true })
  responsibleUserId!: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'responsible_user_id' })
  responsibleUser?: UserEntity;

  /** E-mail of who archived it. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  archivedBy!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
