import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The research's columns that are its record: what an approval freezes (the review's own columns included). */
const RECORD_COLUMNS = [
  'name',
  'start_at',
  'end_at',
  'is_radiance',
  'is_furnance',
  'is_pressure',
  'standard',
  'insulation',
  'heating_curve',
  'criteria_basis',
  'planned_duration_min',
  'pressure_target_pa',
  'pressure_tolerance_pa',
  'classification_to_clients',
  't0_override',
  't0_set_by',
  't0_set_at',
  'sponsor',
  'manufacturer',
  'specimen_description',
  'conditioning',
  'supporting_construction',
  'exposed_side',
  'ambient_temperature_c',
  'pressure_height_mm',
  'end_reason',
  'deviations',
  'report_number',
  'report_date',
  'reviewed_by',
  'reviewed_at',
  'review_comment',
  'approved_by',
  'approved_at',
  'approval_comment',
];

/** The tables of a research's record that name it by research_id (the thermocouple markers go through their config). */
const RECORD_TABLES = ['observation', 'thermo_exclusion', 'research_drawing', 'thermo_config', 'research_url'];

const FROZEN = `RAISE EXCEPTION 'the test is approved (revision %): a superuser must reopen it first', rev USING ERRCODE = 'object_not_in_prerequisite_state'`;

/**
 * The test's life and its issued documents (docs/behaviour.md, "The permanent record"): the review and approval on
 * the research, each approval as a revision (research_revision) with the documents issued with it
 * (research_document), and triggers that refuse a change to an approved test's record in the database itself.
 *
 * The API refuses such a change first, with its 409 (RecordFreeze); the triggers close the moment between that
 * check and the write. Each locks the research row FOR KEY SHARE, which waits for an approval in progress (it
 * holds the row FOR UPDATE) and then reads the row as the approval left it. The readings have no trigger: the
 * ingest's insert takes the same lock and leaves an approved test's frames out itself (readings.queries.ts), and
 * the raw data's hash is what shows a reading changed in the database behind the API's back.
 */
export class PermanentRecord1797200000000 implements MigrationInterface {
  name = 'PermanentRecord1797200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "research_revision" ("research_id" uuid NOT NULL, "revision" integer NOT NULL, "reviewed_by" character varying(255) NOT NULL, "reviewed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "review_comment" character varying(2000), "approved_by" character varying(255) NOT NULL, "approved_at" TIMESTAMP WITH TIME ZONE NOT NULL, "approval_comment" character varying(2000), "data_sha256" character varying(64), "readings" integer, CONSTRAINT "PK_5b3e77c267b25c272bdcca52a57" PRIMARY KEY ("research_id", "revision"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "research_document" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "research_id" uuid NOT NULL, "revision" integer NOT NULL, "kind" character varying(16) NOT NULL, "lang" character varying(2) NOT NULL, "filename" character varying(255) NOT NULL, "size" integer NOT NULL, "sha256" character varying(64) NOT NULL, "data" bytea NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2c4d047ecde7a7f2b87933f471a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_research_document_revision_kind_lang" ON "research_document" ("research_id", "revision", "kind", "lang")`,
    );
    await queryRunner.query(`ALTER TABLE "research" ADD "reviewed_by" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "reviewed_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "research" ADD "review_comment" character varying(2000)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "approved_by" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "approved_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "research" ADD "approval_comment" character varying(2000)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "approved_revision" integer`);
    await queryRunner.query(`ALTER TABLE "research" ADD "reopened_by" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "reopened_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "research" ADD "reopen_reason" character varying(2000)`);
    await queryRunner.query(
      `ALTER TABLE "research_revision" ADD CONSTRAINT "FK_b235b2bb6979943dd7f567728e4" FOREIGN KEY ("research_id") REFERENCES "research"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "research_document" ADD CONSTRAINT "FK_b6d191c0cdde5e2e7d31460509f" FOREIGN KEY ("research_id", "revision") REFERENCES "research_revision"("research_id","revision") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );

    // An approved research's own record: its record columns do not change, and it is not deleted, until it is reopened.
    const changed = `(${RECORD_COLUMNS.map((c) => `OLD."${c}"`).join(', ')}) IS DISTINCT FROM (${RECORD_COLUMNS.map((c) => `NEW."${c}"`).join(', ')})`;
    await queryRunner.query(`
      CREATE FUNCTION research_frozen_row() RETURNS trigger LANGUAGE plpgsql AS $fn$
      DECLARE rev integer := OLD.approved_revision;
      BEGIN
        IF rev IS NOT NULL AND (TG_OP = 'DELETE' OR (NEW.approved_revision IS NOT DISTINCT FROM rev AND ${changed})) THEN
          ${FROZEN};
        END IF;
        IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
        RETURN NEW;
      END
      $fn$`);
    await queryRunner.query(
      `CREATE TRIGGER research_frozen_row BEFORE UPDATE OR DELETE ON "research" FOR EACH ROW EXECUTE FUNCTION research_frozen_row()`,
    );

    // The rows of its record in other tables.
    await queryRunner.query(`
      CREATE FUNCTION research_frozen_part() RETURNS trigger LANGUAGE plpgsql AS $fn$
      DECLARE rev integer;
      BEGIN
        SELECT approved_revision INTO rev FROM research
         WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD.research_id ELSE NEW.research_id END
         FOR KEY SHARE;
        IF rev IS NOT NULL THEN
          ${FROZEN};
        END IF;
        IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
        RETURN NEW;
      END
      $fn$`);
    for (const table of RECORD_TABLES) {
      await queryRunner.query(
        `CREATE TRIGGER ${table}_frozen BEFORE INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION research_frozen_part()`,
      );
    }
    await queryRunner.query(`
      CREATE FUNCTION thermo_marker_frozen() RETURNS trigger LANGUAGE plpgsql AS $fn$
      DECLARE rev integer;
      BEGIN
        SELECT r.approved_revision INTO rev FROM thermo_config c JOIN research r ON r.id = c.research_id
         WHERE c.id = CASE WHEN TG_OP = 'DELETE' THEN OLD.config_id ELSE NEW.config_id END
         FOR KEY SHARE OF r;
        IF rev IS NOT NULL THEN
          ${FROZEN};
        END IF;
        IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
        RETURN NEW;
      END
      $fn$`);
    await queryRunner.query(
      `CREATE TRIGGER thermo_marker_frozen BEFORE INSERT OR UPDATE OR DELETE ON "thermo_marker" FOR EACH ROW EXECUTE FUNCTION thermo_marker_frozen()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER thermo_marker_frozen ON "thermo_marker"`);
    await queryRunner.query(`DROP FUNCTION thermo_marker_frozen()`);
    for (const table of RECORD_TABLES) await queryRunner.query(`DROP TRIGGER ${table}_frozen ON "${table}"`);
    await queryRunner.query(`DROP FUNCTION research_frozen_part()`);
    await queryRunner.query(`DROP TRIGGER research_frozen_row ON "research"`);
    await queryRunner.query(`DROP FUNCTION research_frozen_row()`);
    await queryRunner.query(`ALTER TABLE "research_document" DROP CONSTRAINT "FK_b6d191c0cdde5e2e7d31460509f"`);
    await queryRunner.query(`ALTER TABLE "research_revision" DROP CONSTRAINT "FK_b235b2bb6979943dd7f567728e4"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "reopen_reason"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "reopened_at"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "reopened_by"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "approved_revision"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "approval_comment"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "approved_at"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "approved_by"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "review_comment"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "reviewed_at"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "reviewed_by"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_research_document_revision_kind_lang"`);
    await queryRunner.query(`DROP TABLE "research_document"`);
    await queryRunner.query(`DROP TABLE "research_revision"`);
  }
}
