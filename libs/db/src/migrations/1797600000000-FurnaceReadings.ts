import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A furnace's unassigned readings (docs/behaviour.md, "Furnaces"): the frames of its DAQ's topic that no test on it was
 * scheduled for at their time, kept (never dropped) until staff attach them to a test. Keyed by (furnace, time) as
 * `reading` is by (research, time); a furnace that holds some is not deleted.
 */
export class FurnaceReadings1797600000000 implements MigrationInterface {
  name = 'FurnaceReadings1797600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "furnace_reading" ("furnace_id" uuid NOT NULL, "time" TIMESTAMP WITH TIME ZONE NOT NULL, "daq_time" double precision NOT NULL, "daq_ts" TIMESTAMP WITH TIME ZONE, "radiance" real, "pressure" real, "pk" real, "thermocouples" real array, "faults" smallint array, "received_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_2d6ee3e9e2cc3d9912a36549400" PRIMARY KEY ("furnace_id", "time"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "furnace_reading" ADD CONSTRAINT "FK_62e36a27d5a93bf8cb88f759ae2" FOREIGN KEY ("furnace_id") REFERENCES "furnace"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "furnace_reading" DROP CONSTRAINT "FK_62e36a27d5a93bf8cb88f759ae2"`);
    await queryRunner.query(`DROP TABLE "furnace_reading"`);
  }
}
