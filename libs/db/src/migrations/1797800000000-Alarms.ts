import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alarms of running tests (docs/behaviour.md, "Alarms"): the alarm (one open per research, kind and subject: the
 * partial unique index UQ_alarm_open makes a raise exactly-once across API instances) and each attempt to deliver
 * its messages; who is told: the research's responsible engineer, the furnace's watch list and webhook.
 */
export class Alarms1797800000000 implements MigrationInterface {
  name = 'Alarms1797800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "alarm" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "research_id" uuid NOT NULL, "furnace_id" uuid, "kind" character varying(16) NOT NULL, "subject" character varying(64) NOT NULL DEFAULT '', "raised_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "details" jsonb NOT NULL, "acknowledged_at" TIMESTAMP WITH TIME ZONE, "acknowledged_by" character varying(255), "cleared_at" TIMESTAMP WITH TIME ZONE, "last_notified_at" TIMESTAMP WITH TIME ZONE, "next_notify_at" TIMESTAMP WITH TIME ZONE, "notify_count" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_ea806c911b4b0617f2e306094e7" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_alarm_notify_due" ON "alarm"  ("next_notify_at") WHERE "cleared_at" IS NULL AND "next_notify_at" IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_alarm_research_raised" ON "alarm"  ("research_id", "raised_at") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_alarm_open" ON "alarm"  ("research_id", "kind", "subject") WHERE "cleared_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "alarm_delivery" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "alarm_id" uuid NOT NULL, "channel" character varying(8) NOT NULL, "target" character varying(2000) NOT NULL, "message" integer NOT NULL DEFAULT '1', "attempt" integer NOT NULL, "status" character varying(8) NOT NULL, "error" character varying(2000), "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3752ee9108845265c583b08bb15" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_alarm_delivery_alarm" ON "alarm_delivery"  ("alarm_id", "at") `);
    await queryRunner.query(`ALTER TABLE "furnace" ADD "watch_emails" text array NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "furnace" ADD "webhook_url" character varying(2000)`);
    await queryRunner.query(`ALTER TABLE "furnace" ADD "webhook_secret" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "responsible_user_id" uuid`);
    await queryRunner.query(`CREATE INDEX "IDX_research_responsible_user_id" ON "research"  ("responsible_user_id") `);
    await queryRunner.query(
      `ALTER TABLE "research" ADD CONSTRAINT "FK_ab0529dde73132ec3be4a9af639" FOREIGN KEY ("responsible_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "alarm" ADD CONSTRAINT "FK_e2a12aeddcded43bb52d8ec26dc" FOREIGN KEY ("research_id") REFERENCES "research"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "alarm" ADD CONSTRAINT "FK_2fa70e7da75e2236e465a2c6ed7" FOREIGN KEY ("furnace_id") REFERENCES "furnace"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "alarm_delivery" ADD CONSTRAINT "FK_17076a552d0d5fd4bd27c5e4414" FOREIGN KEY ("alarm_id") REFERENCES "alarm"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "alarm_delivery" DROP CONSTRAINT "FK_17076a552d0d5fd4bd27c5e4414"`);
    await queryRunner.query(`ALTER TABLE "alarm" DROP CONSTRAINT "FK_2fa70e7da75e2236e465a2c6ed7"`);
    await queryRunner.query(`ALTER TABLE "alarm" DROP CONSTRAINT "FK_e2a12aeddcded43bb52d8ec26dc"`);
    await queryRunner.query(`ALTER TABLE "research" DROP CONSTRAINT "FK_ab0529dde73132ec3be4a9af639"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_research_responsible_user_id"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "responsible_user_id"`);
    await queryRunner.query(`ALTER TABLE "furnace" DROP COLUMN "webhook_secret"`);
    await queryRunner.query(`ALTER TABLE "furnace" DROP COLUMN "webhook_url"`);
    await queryRunner.query(`ALTER TABLE "furnace" DROP COLUMN "watch_emails"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_alarm_delivery_alarm"`);
    await queryRunner.query(`DROP TABLE "alarm_delivery"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_alarm_open"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_alarm_research_raised"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_alarm_notify_due"`);
    await queryRunner.query(`DROP TABLE "alarm"`);
  }
}
