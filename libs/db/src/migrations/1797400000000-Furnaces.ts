import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The lab's furnaces (docs/behaviour.md, "Furnaces"), and the furnace a research is scheduled on. Two tests on one
 * furnace never overlap: an exclusion constraint over their [start_at, end_at) windows (archived tests left out),
 * which needs btree_gist for the uuid's equality in a GiST index (PostgreSQL's contrib; the embedded PGlite loads
 * it too, libs/db/src/embedded.ts).
 */
export class Furnaces1797400000000 implements MigrationInterface {
  name = 'Furnaces1797400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gist`);
    await queryRunner.query(
      `CREATE TABLE "furnace" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(255) NOT NULL, "code" character varying(16) NOT NULL, "scan_period_s" real NOT NULL DEFAULT '1', "standard" character varying(16) NOT NULL DEFAULT 'EN_1363_1', "heating_curve" character varying(16) NOT NULL DEFAULT 'iso834', "pressure_target_pa" real, "pressure_tolerance_pa" real, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_furnace_scan_period" CHECK ("scan_period_s" > 0 AND "scan_period_s" <= 3600), CONSTRAINT "CHK_furnace_code" CHECK ("code" ~ '^[a-z0-9][a-z0-9-]{0,15}$'), CONSTRAINT "PK_eb0f11e8ce30565a25aa3581ba3" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_furnace_code" ON "furnace" ("code")`);
    await queryRunner.query(`ALTER TABLE "research" ADD "furnace_id" uuid`);
    await queryRunner.query(`CREATE INDEX "IDX_research_furnace_id" ON "research" ("furnace_id")`);
    await queryRunner.query(
      `ALTER TABLE "research" ADD CONSTRAINT "EXCL_research_furnace_window" EXCLUDE USING gist ("furnace_id" WITH =, tstzrange("start_at", "end_at") WITH &&) WHERE ("furnace_id" IS NOT NULL AND "archived_at" IS NULL)`,
    );
    await queryRunner.query(
      `ALTER TABLE "research" ADD CONSTRAINT "FK_72ad4686a96d5d6481251bc253e" FOREIGN KEY ("furnace_id") REFERENCES "furnace"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "research" DROP CONSTRAINT "FK_72ad4686a96d5d6481251bc253e"`);
    await queryRunner.query(`ALTER TABLE "research" DROP CONSTRAINT "EXCL_research_furnace_window"`);
    await queryRunner.query(`DROP INDEX "IDX_research_furnace_id"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "furnace_id"`);
    await queryRunner.query(`DROP TABLE "furnace"`);
    // btree_gist stays: another schema object may use it, and it holds no data.
  }
}
