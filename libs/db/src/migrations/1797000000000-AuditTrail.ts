import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail (audit_entry): who changed what in a test's record or a user's rights, when, with the
 * values before and after. Append-only in the database itself: a trigger refuses every UPDATE and DELETE
 * (row by row) and TRUNCATE (docs/behaviour.md, "The audit trail"); what the code does cannot undo it.
 */
export class AuditTrail1797000000000 implements MigrationInterface {
  name = 'AuditTrail1797000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "audit_entry" ("id" BIGSERIAL NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "actor" character varying(255), "research_id" uuid, "entity" character varying(64) NOT NULL, "entity_id" character varying(64), "action" character varying(32) NOT NULL, "before" jsonb, "after" jsonb, CONSTRAINT "PK_58a130a4b9da189f46ba2a01801" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_audit_entry_actor" ON "audit_entry" ("actor", "id")`);
    await queryRunner.query(`CREATE INDEX "IDX_audit_entry_research" ON "audit_entry" ("research_id", "id")`);
    await queryRunner.query(`
      CREATE FUNCTION audit_entry_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        RAISE EXCEPTION 'audit_entry is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END
      $fn$`);
    await queryRunner.query(
      `CREATE TRIGGER audit_entry_append_only BEFORE UPDATE OR DELETE ON "audit_entry" FOR EACH ROW EXECUTE FUNCTION audit_entry_append_only()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER audit_entry_no_truncate BEFORE TRUNCATE ON "audit_entry" FOR EACH STATEMENT EXECUTE FUNCTION audit_entry_append_only()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "audit_entry"`);
    await queryRunner.query(`DROP FUNCTION audit_entry_append_only()`);
  }
}
