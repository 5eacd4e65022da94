import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The criteria kept per research (criteria_state): the engine's state up to the frame it covers, the
 * staff and client views, and the lease of the API instance that keeps it up to date. Generated from
 * the entity. Existing researches get their row when the criteria are first asked for or their next
 * frame arrives (docs/architecture.md, "The criteria: computed once, kept, pushed").
 */
export class CriteriaState1796500000000 implements MigrationInterface {
  name = 'CriteriaState1796500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "criteria_state" ("research_id" uuid NOT NULL, "input_hash" character varying(64) NOT NULL, "covered_time" double precision, "frame_count" integer NOT NULL, "state" text NOT NULL, "view_hash" character varying(64) NOT NULL, "staff_view" jsonb NOT NULL, "client_view" jsonb NOT NULL, "owner" character varying(128), "lease_until" TIMESTAMP WITH TIME ZONE, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_41632fab932832e89e53cbcbb47" PRIMARY KEY ("research_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "criteria_state" ADD CONSTRAINT "FK_41632fab932832e89e53cbcbb47" FOREIGN KEY ("research_id") REFERENCES "research"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "criteria_state" DROP CONSTRAINT "FK_41632fab932832e89e53cbcbb47"`);
    await queryRunner.query(`DROP TABLE "criteria_state"`);
  }
}
