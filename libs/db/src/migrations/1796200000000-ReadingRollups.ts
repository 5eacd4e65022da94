import type { MigrationInterface, QueryRunner } from 'typeorm';
import { categoryRollupCtes, channelRollupCtes, ROLLUP_TABLES_DDL } from '../rollups';

/**
 * Rollups of the readings (see rollups.ts): the tables, the backfill of every research stored so
 * far, and the refresh of the category rollups when a research's thermocouple markers change.
 *
 * The tables are written by plain SQL only (the ingest's insert statement and this migration), so
 * they have no entity. The category rollups depend on which channels each measurement type groups:
 * a statement that inserts, updates or deletes markers (or deletes a config) recomputes them for
 * the researches it touched, from the stored frames, in the same transaction.
 */
export class ReadingRollups1796200000000 implements MigrationInterface {
  name = 'ReadingRollups1796200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const ddl of ROLLUP_TABLES_DDL) await queryRunner.query(ddl);
    // Backfill: every frame stored so far.
    await queryRunner.query(`WITH src AS (SELECT research_id, "time", radiance, pressure, pk, thermocouples FROM reading),
      ${channelRollupCtes('src')},
      ${categoryRollupCtes('src')}
      SELECT 1`);
    await queryRunner.query(`
      CREATE FUNCTION reading_rollup_category_refresh(researches uuid[]) RETURNS void LANGUAGE plpgsql AS $fn$
      DECLARE written bigint;
      BEGIN
        DELETE FROM reading_rollup_category WHERE research_id = ANY(researches);
        WITH src AS (SELECT research_id, "time", thermocouples FROM reading WHERE research_id = ANY(researches)),
        ${categoryRollupCtes('src', true)}
        SELECT count(*) INTO written FROM rollup_category_write;
      END
      $fn$`);
    // Statement-level triggers: one refresh per statement, whatever the number of markers it changed.
    await queryRunner.query(`
      CREATE FUNCTION thermo_marker_rollup_refresh() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        PERFORM reading_rollup_category_refresh(ARRAY(SELECT DISTINCT c.research_id FROM changed m JOIN thermo_config c ON c.id = m.config_id));
        RETURN NULL;
      END
      $fn$`);
    await queryRunner.query(`
      CREATE FUNCTION thermo_config_rollup_refresh() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        PERFORM reading_rollup_category_refresh(ARRAY(SELECT DISTINCT research_id FROM changed));
        RETURN NULL;
      END
      $fn$`);
    await queryRunner.query(`CREATE TRIGGER thermo_marker_rollup_insert AFTER INSERT ON thermo_marker REFERENCING NEW TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION thermo_marker_rollup_refresh()`);
    await queryRunner.query(`CREATE TRIGGER thermo_marker_rollup_update AFTER UPDATE ON thermo_marker REFERENCING NEW TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION thermo_marker_rollup_refresh()`);
    await queryRunner.query(`CREATE TRIGGER thermo_marker_rollup_delete AFTER DELETE ON thermo_marker REFERENCING OLD TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION thermo_marker_rollup_refresh()`);
    // Deleting a config deletes its markers first (cascade), when the config row is already gone: refresh by its research.
    await queryRunner.query(`CREATE TRIGGER thermo_config_rollup_delete AFTER DELETE ON thermo_config REFERENCING OLD TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION thermo_config_rollup_refresh()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER thermo_config_rollup_delete ON thermo_config');
    for (const event of ['insert', 'update', 'delete']) await queryRunner.query(`DROP TRIGGER thermo_marker_rollup_${event} ON thermo_marker`);
    await queryRunner.query('DROP FUNCTION thermo_config_rollup_refresh()');
    await queryRunner.query('DROP FUNCTION thermo_marker_rollup_refresh()');
    await queryRunner.query('DROP FUNCTION reading_rollup_category_refresh(uuid[])');
    await queryRunner.query('DROP TABLE reading_rollup_category');
    await queryRunner.query('DROP TABLE reading_rollup');
  }
}
