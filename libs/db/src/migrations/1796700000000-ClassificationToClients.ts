import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Staff decide whether a research's clients see its classification (research.classification_to_clients);
 * they never see a different one (docs/behaviour.md, "Criteria"). The kept criteria are dropped: their
 * views have another shape now (d_e and pressure periods, "not measured"), and the keeper computes each
 * research's again from its frames the next time it is asked.
 */
export class ClassificationToClients1796700000000 implements MigrationInterface {
  name = 'ClassificationToClients1796700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "research" ADD "classification_to_clients" boolean NOT NULL DEFAULT true`);
    await queryRunner.query(`DELETE FROM "criteria_state"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "classification_to_clients"`);
    await queryRunner.query(`DELETE FROM "criteria_state"`);
  }
}
