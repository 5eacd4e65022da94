import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A superuser archives a research instead of deleting it (research.archived_at, archived_by): the lists leave it
 * out, every row stays (docs/behaviour.md, "The audit trail").
 */
export class ResearchArchive1797100000000 implements MigrationInterface {
  name = 'ResearchArchive1797100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "research" ADD "archived_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "research" ADD "archived_by" character varying(255)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "archived_by"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "archived_at"`);
  }
}
