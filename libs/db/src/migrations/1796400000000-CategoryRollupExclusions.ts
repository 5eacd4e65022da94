import type { MigrationInterface, QueryRunner } from 'typeorm';
import { categoryRollupCtes, channelRollupCtes } from '../rollups';

/**
 * Exclusions in the category rollups: a thermocouple excluded from a time on (thermo_exclusion)
 * does not count in its measurement types' maximum and mean from that time on (see rollups.ts).
 * Recreates reading_rollup_rebuild with that rule, refreshes a research's category rollups when
 * a statement inserts, updates or deletes its exclusions (in the same transaction, as the marker
 * triggers do), and rebuilds the category rollups of the researches that already have exclusions.
 */
export class CategoryRollupExclusions1796400000000 implements MigrationInterface {
  name = 'CategoryRollupExclusions1796400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(rebuildFunction(true));
    await queryRunner.query(REFRESH_IN_STATEMENT);
    await queryRunner.query(`CREATE TRIGGER thermo_exclusion_rollup_insert AFTER INSERT ON thermo_exclusion REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION thermo_exclusion_rollup_refresh()`);
    await queryRunner.query(`CREATE TRIGGER thermo_exclusion_rollup_update AFTER UPDATE ON thermo_exclusion REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION thermo_exclusion_rollup_refresh()`);
    await queryRunner.query(`CREATE TRIGGER thermo_exclusion_rollup_delete AFTER DELETE ON thermo_exclusion REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION thermo_exclusion_rollup_refresh()`);
    await queryRunner.query(
      'SELECT reading_rollup_category_refresh(ARRAY(SELECT DISTINCT research_id FROM thermo_exclusion))',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const event of ['insert', 'update', 'delete'])
      await queryRunner.query(`DROP TRIGGER thermo_exclusion_rollup_${event} ON thermo_exclusion`);
    await queryRunner.query('DROP FUNCTION thermo_exclusion_rollup_refresh()');
    await queryRunner.query(rebuildFunction(false));
    await queryRunner.query(
      'SELECT reading_rollup_category_refresh(ARRAY(SELECT DISTINCT research_id FROM thermo_exclusion))',
    );
  }
}

/**
 * The trigger function of this migration: a statement that changes exclusions refreshes its researches'
 * category rollups itself (RollupRefreshQueue1796600000000 queues them instead; its down restores this).
 */
export const REFRESH_IN_STATEMENT = `
      CREATE OR REPLACE FUNCTION thermo_exclusion_rollup_refresh() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        -- Only researches still there: deleting a research deletes its exclusions too (cascade).
        IF TG_OP = 'INSERT' THEN
          PERFORM reading_rollup_category_refresh(ARRAY(SELECT DISTINCT research_id FROM new_rows WHERE research_id IN (SELECT id FROM research)));
        ELSIF TG_OP = 'DELETE' THEN
          PERFORM reading_rollup_category_refresh(ARRAY(SELECT DISTINCT research_id FROM old_rows WHERE research_id IN (SELECT id FROM research)));
        ELSE
          PERFORM reading_rollup_category_refresh(ARRAY(
            SELECT research_id FROM (SELECT research_id FROM old_rows UNION SELECT research_id FROM new_rows) u WHERE research_id IN (SELECT id FROM research)));
        END IF;
        RETURN NULL;
      END
      $fn$`;

/** reading_rollup_rebuild as ReadingRollups1796200000000 created it, its category rollups with or without the exclusions. */
function rebuildFunction(exclusions: boolean): string {
  return `
    CREATE OR REPLACE FUNCTION reading_rollup_rebuild(p_research uuid, p_categories_only boolean) RETURNS void LANGUAGE plpgsql SET work_mem = '64MB' AS $fn$
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
          ${categoryRollupCtes('src', true, exclusions)}
          SELECT count(*) INTO v_written FROM rollup_category_write;
        ELSE
          WITH src AS (SELECT research_id, "time", radiance, pressure, pk, thermocouples FROM reading
                       WHERE research_id = p_research AND "time" >= v_from AND "time" < v_from + 3600),
          ${channelRollupCtes('src')},
          ${categoryRollupCtes('src', false, exclusions)}
          SELECT count(*) INTO v_written FROM rollup_write;
        END IF;
        v_from := v_from + 3600;
      END LOOP;
    END
    $fn$`;
}
