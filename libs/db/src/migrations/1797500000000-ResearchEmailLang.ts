import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The language of a client's invitation (docs/behaviour.md §1): Polish or English, chosen by staff when the
 * address is added. Records made before it keep Polish, the language their invitations were sent in.
 */
export class ResearchEmailLang1797500000000 implements MigrationInterface {
  name = 'ResearchEmailLang1797500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "research_email" ADD "lang" character varying(2) NOT NULL DEFAULT 'pl'`);
    await queryRunner.query(
      `ALTER TABLE "research_email" ADD CONSTRAINT "CHK_research_email_lang" CHECK ("lang" IN ('pl', 'en'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "research_email" DROP CONSTRAINT "CHK_research_email_lang"`);
    await queryRunner.query(`ALTER TABLE "research_email" DROP COLUMN "lang"`);
  }
}
