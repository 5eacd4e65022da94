import { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1795313029028 implements MigrationInterface {
  name = 'Init1795313029028';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "research" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(255) NOT NULL, "start_at" TIMESTAMP WITH TIME ZONE NOT NULL, "end_at" TIMESTAMP WITH TIME ZONE NOT NULL, "is_radiance" boolean NOT NULL DEFAULT false, "is_furnance" boolean NOT NULL DEFAULT false, "is_pressure" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_be0614c6e72bbe071af7b1b3586" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_research_start_at" ON "research"  ("start_at") `);
    await queryRunner.query(
      `CREATE TABLE "research_email" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "research_id" uuid NOT NULL, "email" character varying(255) NOT NULL, "is_sent" boolean NOT NULL DEFAULT false, "sent_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_research_email_research_id_email" UNIQUE ("research_id", "email"), CONSTRAINT "PK_c047f3ee7de91caad054cf3ed86" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "research_url" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "research_id" uuid NOT NULL, "url" character varying(2048) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6c848ae7c80a50bfcaeaad48873" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_research_url_research_id" ON "research_url"  ("research_id") `);
    await queryRunner.query(
      `CREATE TABLE "thermo_config" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "research_id" uuid NOT NULL, "image_filename" character varying(255) NOT NULL, "image_mime" character varying(32) NOT NULL, "image_width" integer NOT NULL, "image_height" integer NOT NULL, "image_sha256" character varying(64) NOT NULL, "image_data" bytea NOT NULL, "config_filename" character varying(255) NOT NULL, "config_data" bytea NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_dd1d050c583492c1050ae273629" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_thermo_config_research_id" ON "thermo_config"  ("research_id") `);
    await queryRunner.query(
      `CREATE TABLE "thermo_marker" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "config_id" uuid NOT NULL, "thermo_id" integer NOT NULL, "name" character varying(64) NOT NULL, "type_name" character varying(64) NOT NULL, "color_hex" character varying(7) NOT NULL, "item_x" real NOT NULL, "item_y" real NOT NULL, "item_size" real NOT NULL, "label_x" real NOT NULL, "label_y" real NOT NULL, "label_width" real NOT NULL, "label_height" real NOT NULL, CONSTRAINT "UQ_thermo_marker_config_id_thermo_id" UNIQUE ("config_id", "thermo_id"), CONSTRAINT "PK_b6b6cf3cf350e2db9d1e4338159" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "email" character varying(255) NOT NULL, "full_name" character varying(255), "hashed_password" character varying(255) NOT NULL, "is_active" boolean NOT NULL DEFAULT true, "is_superuser" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_97672ac88f789774dd47f7c8be3" UNIQUE ("email"), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "research_email" ADD CONSTRAINT "FK_475d0186ffd69fa9876aa9358c7" FOREIGN KEY ("research_id") REFERENCES "research"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "research_url" ADD CONSTRAINT "FK_ccf14b012c5076ba8f13f268cd4" FOREIGN KEY ("research_id") REFERENCES "research"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "thermo_config" ADD CONSTRAINT "FK_362226e048f43c4c7af3ec5b8bf" FOREIGN KEY ("research_id") REFERENCES "research"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "thermo_marker" ADD CONSTRAINT "FK_8ea7598a9acea0ccc101985bba6" FOREIGN KEY ("config_id") REFERENCES "thermo_config"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "thermo_marker" DROP CONSTRAINT "FK_8ea7598a9acea0ccc101985bba6"`);
    await queryRunner.query(`ALTER TABLE "thermo_config" DROP CONSTRAINT "FK_362226e048f43c4c7af3ec5b8bf"`);
    await queryRunner.query(`ALTER TABLE "research_url" DROP CONSTRAINT "FK_ccf14b012c5076ba8f13f268cd4"`);
    await queryRunner.query(`ALTER TABLE "research_email" DROP CONSTRAINT "FK_475d0186ffd69fa9876aa9358c7"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP TABLE "thermo_marker"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_thermo_config_research_id"`);
    await queryRunner.query(`DROP TABLE "thermo_config"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_research_url_research_id"`);
    await queryRunner.query(`DROP TABLE "research_url"`);
    await queryRunner.query(`DROP TABLE "research_email"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_research_start_at"`);
    await queryRunner.query(`DROP TABLE "research"`);
  }
}
