import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Readings (one row per DAQ frame) and the dead-letter table of refused DAQ messages.
 *
 * Generated from the entities, then edited by hand for what TypeORM cannot express: where the
 * TimescaleDB extension is installed (the production image), `reading` becomes a hypertable on `ts`
 * with native compression (segment by research, order by time). TimescaleDB requires the
 * partitioning column in every unique index, so there the key is widened to (research_id, time, ts);
 * `ts` is a function of (research, time) (research.start_at + time, fixed when the row is written),
 * so the widened key refuses exactly the duplicates the narrow one does. Without TimescaleDB
 * (PGlite, plain PostgreSQL) the table stays as the entity describes it: the primary key serves
 * every per-research query and a BRIN index on `ts` serves time-range scans at almost no cost,
 * because frames arrive in time order. The ingest and the history queries are the same on both.
 */
export class Readings1795313545775 implements MigrationInterface {
  name = 'Readings1795313545775';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "reading_dead_letter" ("id" BIGSERIAL NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "topic" character varying(512) NOT NULL, "research_id" uuid, "reason" character varying(32) NOT NULL, "detail" character varying(1024) NOT NULL, "payload" bytea NOT NULL, "payload_bytes" integer NOT NULL, CONSTRAINT "PK_26890552eceb0a2655f6ac701c4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "reading" ("research_id" uuid NOT NULL, "time" double precision NOT NULL, "ts" TIMESTAMP WITH TIME ZONE NOT NULL, "daq_ts" TIMESTAMP WITH TIME ZONE, "radiance" real, "pressure" real, "pk" real, "thermocouples" real array, CONSTRAINT "PK_e6b4b23474a6275ea52c259b0d2" PRIMARY KEY ("research_id", "time"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_reading_ts_brin" ON "reading" USING brin ("ts") `);
    await queryRunner.query(
      `ALTER TABLE "reading" ADD CONSTRAINT "FK_a8fbb99c185ff6d5e534fb8b720" FOREIGN KEY ("research_id") REFERENCES "research"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // Hand-written: TimescaleDB only where the extension is installed (CREATE EXTENSION needs it
    // preloaded, which is the deployment's decision, not this migration's).
    await queryRunner.query(`
            DO $$
            BEGIN
                IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'timescaledb') THEN
                    ALTER TABLE "reading" DROP CONSTRAINT "PK_e6b4b23474a6275ea52c259b0d2";
                    ALTER TABLE "reading" ADD CONSTRAINT "PK_e6b4b23474a6275ea52c259b0d2" PRIMARY KEY ("research_id", "time", "ts");
                    PERFORM create_hypertable('reading', 'ts', chunk_time_interval => INTERVAL '7 days');
                    ALTER TABLE "reading" SET (timescaledb.compress, timescaledb.compress_segmentby = 'research_id', timescaledb.compress_orderby = 'time');
                    -- A test is reviewed in the days after it ran; older chunks are read rarely and shrink ~10x.
                    PERFORM add_compression_policy('reading', INTERVAL '30 days');
                END IF;
            END
            $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "reading"`);
    await queryRunner.query(`DROP TABLE "reading_dead_letter"`);
  }
}
