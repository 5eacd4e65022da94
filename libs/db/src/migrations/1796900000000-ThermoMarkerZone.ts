import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A thermocouple's EN 1634-1 insulation zone (thermo_marker.zone): 'I1' or 'I2' when it counts for
 * that class only, null when it counts for both — what every marker stored before means.
 */
export class ThermoMarkerZone1796900000000 implements MigrationInterface {
  name = 'ThermoMarkerZone1796900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "thermo_marker" ADD "zone" character varying(2)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "thermo_marker" DROP COLUMN "zone"`);
  }
}
