import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the lab's test report states besides the measurements (EN 1363-1 §12), as columns of the
 * research (null: not given), and the specimen's drawings (PDF or image, kept in the database like the
 * thermocouple photos). docs/behaviour.md §3, §11.
 */
export class ReportFields1796800000000 implements MigrationInterface {
  name = 'ReportFields1796800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "research_drawing" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "research_id" uuid NOT NULL, "filename" character varying(255) NOT NULL, "mime" character varying(32) NOT NULL, "size" integer NOT NULL, "sha256" character varying(64) NOT NULL, "data" bytea NOT NULL, "created_by" character varying(255), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e6e3ef60bccab137d7b1a80f265" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_research_drawing_research_id" ON "research_drawing" ("research_id")`);
    await queryRunner.query(
      `ALTER TABLE "research_drawing" ADD CONSTRAINT "FK_595b45f32bbf3d9b08fc1e82d4e" FOREIGN KEY ("research_id") REFERENCES "research"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`ALTER TABLE "research" ADD "sponsor" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "manufacturer" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "specimen_description" character varying(10000)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "conditioning" character varying(2000)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "supporting_construction" character varying(2000)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "exposed_side" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "ambient_temperature_c" real`);
    await queryRunner.query(`ALTER TABLE "research" ADD "pressure_height_mm" real`);
    await queryRunner.query(`ALTER TABLE "research" ADD "end_reason" character varying(2000)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "deviations" character varying(4000)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "report_number" character varying(64)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "report_date" date`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "report_date"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "report_number"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "deviations"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "end_reason"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "pressure_height_mm"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "ambient_temperature_c"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "exposed_side"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "supporting_construction"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "conditioning"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "specimen_description"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "manufacturer"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "sponsor"`);
    await queryRunner.query(`ALTER TABLE "research_drawing" DROP CONSTRAINT "FK_595b45f32bbf3d9b08fc1e82d4e"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_research_drawing_research_id"`);
    await queryRunner.query(`DROP TABLE "research_drawing"`);
  }
}
