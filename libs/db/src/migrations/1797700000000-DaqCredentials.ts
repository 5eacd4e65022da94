import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The furnace DAQs' MQTT credentials (docs/behaviour.md, "DAQ credentials"): one per furnace, its password kept
 * as a scrypt hash only, gone with its furnace.
 */
export class DaqCredentials1797700000000 implements MigrationInterface {
  name = 'DaqCredentials1797700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "furnace_daq_credential" ("furnace_id" uuid NOT NULL, "username" character varying(64) NOT NULL, "password_hash" character varying(255) NOT NULL, "issued_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_8b0ba5b588c751113f8e62ee99f" PRIMARY KEY ("furnace_id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_furnace_daq_credential_username" ON "furnace_daq_credential" ("username")`,
    );
    await queryRunner.query(
      `ALTER TABLE "furnace_daq_credential" ADD CONSTRAINT "FK_8b0ba5b588c751113f8e62ee99f" FOREIGN KEY ("furnace_id") REFERENCES "furnace"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "furnace_daq_credential"`);
  }
}
