import type { MigrationInterface, QueryRunner } from 'typeorm';
import { REFRESH_IN_STATEMENT } from './1796400000000-CategoryRollupExclusions';

/**
 * A change of a research's exclusions no longer rebuilds its category rollups inside the statement
 * that made it (a 24-hour test took 20 s, inside the staff's request): the trigger queues the
 * research with the earliest time the change touches (rollup_refresh), and an API instance rebuilds
 * the category rollups from that hour on, an hour of frames per transaction (rollup-refresh.ts;
 * docs/architecture.md, "Rollups"). Marker changes still refresh in their statement (a config is
 * uploaded before a test, when there are no frames to read).
 */
export class RollupRefreshQueue1796600000000 implements MigrationInterface {
  name = 'RollupRefreshQueue1796600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE rollup_refresh (
      id bigserial PRIMARY KEY,
      research_id uuid NOT NULL REFERENCES research(id) ON DELETE CASCADE,
      from_time double precision NOT NULL,
      requested_at timestamptz NOT NULL DEFAULT now())`);
    await queryRunner.query('CREATE INDEX rollup_refresh_research ON rollup_refresh (research_id, id)');
    // Which instance is rebuilding a research now, until when (renewed at each hour of frames).
    await queryRunner.query(`CREATE TABLE rollup_refresh_claim (
      research_id uuid PRIMARY KEY REFERENCES research(id) ON DELETE CASCADE,
      owner character varying(128) NOT NULL,
      until timestamptz NOT NULL)`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION thermo_exclusion_rollup_refresh() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        -- Only researches still there: deleting a research deletes its exclusions too (cascade).
        IF TG_OP = 'INSERT' THEN
          INSERT INTO rollup_refresh (research_id, from_time)
            SELECT research_id, min(from_time) FROM new_rows WHERE research_id IN (SELECT id FROM research) GROUP BY research_id;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO rollup_refresh (research_id, from_time)
            SELECT research_id, min(from_time) FROM old_rows WHERE research_id IN (SELECT id FROM research) GROUP BY research_id;
        ELSE
          INSERT INTO rollup_refresh (research_id, from_time)
            SELECT research_id, min(from_time) FROM (SELECT research_id, from_time FROM old_rows UNION ALL SELECT research_id, from_time FROM new_rows) u
            WHERE research_id IN (SELECT id FROM research) GROUP BY research_id;
        END IF;
        RETURN NULL;
      END
      $fn$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // As CategoryRollupExclusions1796400000000 made it: the refresh inside the statement.
    await queryRunner.query(REFRESH_IN_STATEMENT);
    await queryRunner.query(
      'SELECT reading_rollup_category_refresh(ARRAY(SELECT DISTINCT research_id FROM rollup_refresh))',
    );
    await queryRunner.query('DROP TABLE rollup_refresh_claim');
    await queryRunner.query('DROP TABLE rollup_refresh');
  }
}
