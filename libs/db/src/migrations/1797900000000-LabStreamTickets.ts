import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stream ticket may open the lab overview's stream (docs/behaviour.md §18) as well as a research's: the
 * overview's tickets name no research (research_id null), and only a staff user's may be bought.
 */
export class LabStreamTickets1797900000000 implements MigrationInterface {
  name = 'LabStreamTickets1797900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "stream_ticket" ALTER COLUMN "research_id" DROP NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "stream_ticket" WHERE "research_id" IS NULL`);
    await queryRunner.query(`ALTER TABLE "stream_ticket" ALTER COLUMN "research_id" SET NOT NULL`);
  }
}
