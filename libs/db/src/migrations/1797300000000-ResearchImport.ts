import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A research being imported from an archive (docs/behaviour.md, "The archive"): its row in research_import
 * while the import writes its record in short transactions. While the row is there the research is hidden:
 * not listed, not readable, no stream. The import deletes the row in the short transaction that makes the test
 * visible; a failed import deletes the research (its record cascades), and an API starting up deletes the research
 * of an import whose row was not touched for a while (its process died). The row goes with its research.
 */
export class ResearchImport1797300000000 implements MigrationInterface {
  name = 'ResearchImport1797300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "research_import" ("research_id" uuid NOT NULL, "importer" character varying(255), "started_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "touched_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_research_import" PRIMARY KEY ("research_id"), CONSTRAINT "FK_research_import_research" FOREIGN KEY ("research_id") REFERENCES "research"("id") ON DELETE CASCADE)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // A research still being imported is half a record: it goes with the table that hides it.
    await queryRunner.query(`DELETE FROM "research" WHERE "id" IN (SELECT "research_id" FROM "research_import")`);
    await queryRunner.query(`DROP TABLE "research_import"`);
  }
}
