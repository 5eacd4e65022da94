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
    // Recomputes a research's rollups (or only its category rollups) from its stored frames, an hour
    // of frames at a time (3 600 s is a multiple of every width, so each bucket is written once)
    // with room to aggregate them in memory.
    await queryRunner.query(`
      CREATE FUNCTION reading_rollup_rebuild(p_research uuid, p_categories_only boolean) RETURNS void LANGUAGE plpgsql SET work_mem = '64MB' AS $fn$
      DECLARE
        v_from double precision;
        v_last double precision;
        v_written bigint;
      BEGIN
        IF NOT p_categories_only THEN
          DELETE FROM reading_rollup WHERE research_id = p_research;
        END IF;
        DELETE FROM reading_rollup_category WHERE research_id = p_research;
        SELECT floor(min("time") / 3600) * 3600, max("time") INTO v_from, v_last FROM reading WHERE research_id = p_research;
        WHILE v_from <= v_last LOOP
          IF p_categories_only THEN
            WITH src AS (SELECT research_id, "time", thermocouples FROM reading WHERE research_id = p_research AND "time" >= v_from AND "time" < v_from + 3600),
            ${categoryRollupCtes('src', true, false)}
            SELECT count(*) INTO v_written FROM rollup_category_write;
          ELSE
            WITH src AS (SELECT research_id, "time", radiance, pressure, pk, thermocouples FROM reading
                         WHERE research_id = p_research AND "time" >= v_from AND "time" < v_from + 3600),
            ${channelRollupCtes('src')},
            ${categoryRollupCtes('src', false, false)}
            SELECT count(*) INTO v_written FROM rollup_write;
          END IF;
          v_from := v_from + 3600;
        END LOOP;
      END
      $fn$`);
    // Backfill: every research stored so far.
    await queryRunner.query('SELECT reading_rollup_rebuild(id, false) FROM research');
    await queryRunner.query(`
      CREATE FUNCTION reading_rollup_category_refresh(researches uuid[]) RETURNS void LANGUAGE sql AS $fn$
        SELECT reading_rollup_rebuild(r, true) FROM unnest(researches) AS r
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
    for (const event of ['insert', 'update', 'delete'])
      await queryRunner.query(`DROP TRIGGER thermo_marker_rollup_${event} ON thermo_marker`);
    await queryRunner.query('DROP FUNCTION thermo_config_rollup_refresh()');
    await queryRunner.query('DROP FUNCTION thermo_marker_rollup_refresh()');
    await queryRunner.query('DROP FUNCTION reading_rollup_category_refresh(uuid[])');
    await queryRunner.query('DROP FUNCTION reading_rollup_rebuild(uuid, boolean)');
    await queryRunner.query('DROP TABLE reading_rollup_category');
    await queryRunner.query('DROP TABLE reading_rollup');
  }
}
