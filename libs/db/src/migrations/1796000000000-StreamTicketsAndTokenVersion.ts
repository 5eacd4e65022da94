import { MigrationInterface, QueryRunner } from 'typeorm';

/** Token revocation (users.token_version), the forced first password change and single-use stream tickets. */
export class StreamTicketsAndTokenVersion1796000000000 implements MigrationInterface {
  name = 'StreamTicketsAndTokenVersion1796000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "stream_ticket" ("id" character varying(64) NOT NULL, "research_id" uuid NOT NULL, "user_id" uuid, "email_id" uuid, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "credential_expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_699f4ecd099c139c15fae2b93c0" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_stream_ticket_expires_at" ON "stream_ticket"  ("expires_at") `);
    await queryRunner.query(`ALTER TABLE "users" ADD "token_version" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "users" ADD "must_change_password" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(
      `ALTER TABLE "stream_ticket" ADD CONSTRAINT "FK_beb4033e08ef125d08ac271fc09" FOREIGN KEY ("research_id") REFERENCES "research"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "stream_ticket" DROP CONSTRAINT "FK_beb4033e08ef125d08ac271fc09"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "must_change_password"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "token_version"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_stream_ticket_expires_at"`);
    await queryRunner.query(`DROP TABLE "stream_ticket"`);
  }
}
