import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fire-test criteria: each research's test profile and T0 set by hand, observations, thermocouple
 * exclusions, and per frame the channels that read out of range and when the frame was received.
 *
 * Generated from the entities, then edited by hand: existing researches get criteria_basis 'absolute'
 * (the limits as absolute °C, as they were reviewed), new ones default to 'rise' (above T0).
 */
export class CriteriaProfile1796300000000 implements MigrationInterface {
  name = 'CriteriaProfile1796300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "observation" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "research_id" uuid NOT NULL, "time" double precision NOT NULL, "kind" character varying(32) NOT NULL, "note" character varying(2000), "visible_to_clients" boolean NOT NULL DEFAULT false, "created_by" character varying(255), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_77a736edc631a400b788ce302cb" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_observation_research_id_time" ON "observation"  ("research_id", "time") `,
    );
    await queryRunner.query(
      `CREATE TABLE "thermo_exclusion" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "research_id" uuid NOT NULL, "thermo_id" integer NOT NULL, "from_time" double precision NOT NULL, "reason" character varying(500) NOT NULL, "created_by" character varying(255), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a517e46723aa867352af998c26f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_thermo_exclusion_research_id" ON "thermo_exclusion"  ("research_id") `);
    await queryRunner.query(`ALTER TABLE "research" ADD "standard" character varying(16) NOT NULL DEFAULT 'EN_1363_1'`);
    await queryRunner.query(`ALTER TABLE "research" ADD "insulation" character varying(2)`);
    await queryRunner.query(
      `ALTER TABLE "research" ADD "heating_curve" character varying(16) NOT NULL DEFAULT 'iso834'`,
    );
    await queryRunner.query(
      `ALTER TABLE "research" ADD "criteria_basis" character varying(8) NOT NULL DEFAULT 'absolute'`,
    );
    await queryRunner.query(`ALTER TABLE "research" ALTER COLUMN "criteria_basis" SET DEFAULT 'rise'`);
    await queryRunner.query(`ALTER TABLE "research" ADD "planned_duration_min" integer`);
    await queryRunner.query(`ALTER TABLE "research" ADD "pressure_target_pa" real`);
    await queryRunner.query(`ALTER TABLE "research" ADD "pressure_tolerance_pa" real`);
    await queryRunner.query(`ALTER TABLE "research" ADD "t0_override" double precision`);
    await queryRunner.query(`ALTER TABLE "research" ADD "t0_set_by" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "research" ADD "t0_set_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "reading" ADD "faults" smallint array`);
    await queryRunner.query(`ALTER TABLE "reading" ADD "received_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "IDX_reading_faults" ON "reading" ("research_id", "time") WHERE "faults" IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "observation" ADD CONSTRAINT "FK_68f9d9ee45777a533cc2b43fe2c" FOREIGN KEY ("research_id") REFERENCES "research"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "thermo_exclusion" ADD CONSTRAINT "FK_2a388698569cb49aa7c90f66af0" FOREIGN KEY ("research_id") REFERENCES "research"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "thermo_exclusion" DROP CONSTRAINT "FK_2a388698569cb49aa7c90f66af0"`);
    await queryRunner.query(`ALTER TABLE "observation" DROP CONSTRAINT "FK_68f9d9ee45777a533cc2b43fe2c"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_reading_faults"`);
    await queryRunner.query(`ALTER TABLE "reading" DROP COLUMN "received_at"`);
    await queryRunner.query(`ALTER TABLE "reading" DROP COLUMN "faults"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "t0_set_at"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "t0_set_by"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "t0_override"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "pressure_tolerance_pa"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "pressure_target_pa"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "planned_duration_min"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "criteria_basis"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "heating_curve"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "insulation"`);
    await queryRunner.query(`ALTER TABLE "research" DROP COLUMN "standard"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_thermo_exclusion_research_id"`);
    await queryRunner.query(`DROP TABLE "thermo_exclusion"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_observation_research_id_time"`);
    await queryRunner.query(`DROP TABLE "observation"`);
  }
}
