import { BadRequestException, ConflictException, ForbiddenException, NotFoundException } from '@nestjs/common';
import { FakeAudit } from '../../test/fakes/audit.fake';
import { FakeUsersRepository } from '../../test/fakes/users.repository.fake';
import type { Revocation, Revocations } from '../auth/revocations';
import { PasswordHasher } from './password-hasher';
import { UsersService } from './users.service';

/** Records what would be announced on the bus. */
class FakeRevocations {
  readonly published: Revocation[] = [];
  async publish(r: Revocation): Promise<void> {
    this.published.push(r);
  }
  as(): Revocations {
    return this as unknown as Revocations;
  }
}

// argon2 costs ~100 ms a hash: accounts are seeded with one hash made once, and only the tests about
// hashing hash again.
const PASSWORD = 'correct-horse-1';
let HASH: string;
const hasher = new PasswordHasher();

beforeAll(async () => {
  HASH = await hasher.hash(PASSWORD);
});

function setup() {
  const repo = new FakeUsersRepository();
  const revocations = new FakeRevocations();
  const audit = new FakeAudit();
  const service = new UsersService(repo.asRepository(), hasher, revocations.as(), audit.as());
  const admin = repo.seed({ email: 'admin@example.com', hashedPassword: HASH, isSuperuser: true });
  const alice = repo.seed({ email: 'alice@example.com', hashedPassword: HASH, fullName: 'Alice' });
  return { repo, service, admin, alice, revocations, audit };
}

/** The HTTP status the exception filter would answer with, and its detail. */
async function failure(p: Promise<unknown>): Promise<{ status: number; detail: string }> {
  try {
    await p;
  } catch (e) {
    if (
      e instanceof ConflictException ||
      e instanceof ForbiddenException ||
      e instanceof NotFoundException ||
      e instanceof BadRequestException
    ) {
      return { status: e.getStatus(), detail: e.message };
    }
    throw e;
  }
  throw new Error('expected the call to fail');
}

describe('UsersService', () => {
  describe('create and register', () => {
    it('stores the e-mail lower-cased and the password as an argon2id hash, with ordinary rights by default', async () => {
      const { service, repo } = setup();
      const user = await service.create(
        { email: 'New.Person@Example.COM', password: 'a-long-password' },
        'admin@example.com',
      );
      const stored = repo.stored(user.id)!;
      expect(stored).toMatchObject({
        email: 'new.person@example.com',
        isActive: true,
        isSuperuser: false,
        fullName: null,
      });
      expect(stored.hashedPassword).toMatch(/^\$argon2id\$/);
      expect(stored.hashedPassword).not.toContain('a-long-password');
      expect(await service.authenticate('new.person@example.com', 'a-long-password')).toMatchObject({ id: user.id });
    });

    it('refuses an e-mail that exists in another letter case with 409', async () => {
      const { service, repo } = setup();
      const before = repo.size;
      expect(
        await failure(service.register('approval', { email: 'ALICE@example.com', password: 'another-password' })),
      ).toEqual({
        status: 409,
        detail: 'The user with this email already exists in the system',
      });
      expect(repo.size).toBe(before);
    });

    it('never grants rights on self-registration: inactive until approved, active only with SIGNUP=open', async () => {
      const { service, repo } = setup();
      // The HTTP layer refuses these fields; the service ignores them should a caller pass them anyway.
      const input = { email: 'bob@example.com', password: 'bobs-password', isSuperuser: true, isActive: true };
      const waiting = await service.register('approval', input as Parameters<UsersService['register']>[1]);
      expect(repo.stored(waiting.id)).toMatchObject({ isSuperuser: false, isActive: false });
      const open = await service.register('open', { ...input, email: 'carol@example.com' } as Parameters<
        UsersService['register']
      >[1]);
      expect(repo.stored(open.id)).toMatchObject({ isSuperuser: false, isActive: true });
    });

    it('refuses every sign-up with SIGNUP=off, storing nothing', async () => {
      const { service, repo } = setup();
      const before = repo.size;
      expect(await failure(service.register('off', { email: 'dave@example.com', password: 'daves-password' }))).toEqual(
        { status: 403, detail: 'Sign-up is disabled' },
      );
      expect(repo.size).toBe(before);
    });
  });

  describe('update by a superuser', () => {
    it('forbids a superuser to revoke their own superuser right or deactivate themself', async () => {
      const { service, repo, admin } = setup();
      expect(await failure(service.update(admin, admin.id, { isSuperuser: false }))).toEqual({
        status: 403,
        detail: 'Super users are not allowed to revoke their own rights',
      });
      expect((await failure(service.update(admin, admin.id, { isActive: false }))).status).toBe(403);
      expect(repo.stored(admin.id)).toMatchObject({ isSuperuser: true, isActive: true });
      // Their own name is theirs to change.
      await service.update(admin, admin.id, { fullName: 'The Admin' });
      expect(repo.stored(admin.id)?.fullName).toBe('The Admin');
    });

    it("changes another account's rights, e-mail and password", async () => {
      const { service, repo, admin, alice } = setup();
      await service.update(admin, alice.id, {
        isSuperuser: true,
        isActive: false,
        email: 'Alice.New@Example.com',
        password: 'brand-new-password',
      });
      expect(repo.stored(alice.id)).toMatchObject({
        isSuperuser: true,
        isActive: false,
        email: 'alice.new@example.com',
      });
      expect(await service.authenticate('alice.new@example.com', 'brand-new-password')).not.toBeNull();
      expect(await service.authenticate('alice.new@example.com', PASSWORD)).toBeNull();
    });

    it('answers 409 when the new e-mail belongs to someone else, and 404 for an unknown account', async () => {
      const { service, repo, admin, alice } = setup();
      expect((await failure(service.update(admin, alice.id, { email: 'ADMIN@example.com' }))).status).toBe(409);
      expect(repo.stored(alice.id)?.email).toBe('alice@example.com');
      expect(await failure(service.update(admin, '00000000-0000-4000-8000-000000000000', { fullName: 'x' }))).toEqual({
        status: 404,
        detail: 'The user with this id does not exist in the system',
      });
    });
  });

  describe('own account', () => {
    it('updates own name and e-mail, refusing an e-mail taken in another letter case', async () => {
      const { service, repo, alice } = setup();
      await service.updateMe(alice, { fullName: 'Alice A.', email: 'Alice.A@Example.com', currentPassword: PASSWORD });
      expect(repo.stored(alice.id)).toMatchObject({ fullName: 'Alice A.', email: 'alice.a@example.com' });
      expect(
        (await failure(service.updateMe(alice, { email: 'Admin@Example.com', currentPassword: PASSWORD }))).status,
      ).toBe(409);
      expect(repo.stored(alice.id)?.email).toBe('alice.a@example.com');
    });

    it('refuses a password change with a wrong current password (400) and keeps the old password', async () => {
      const { service, repo, alice } = setup();
      expect(await failure(service.changePassword(alice, 'not-the-password', 'a-new-password'))).toEqual({
        status: 400,
        detail: 'Incorrect password',
      });
      expect(repo.stored(alice.id)?.hashedPassword).toBe(HASH);
    });

    it('refuses a new password equal to the current one', async () => {
      const { service, alice } = setup();
      expect(await failure(service.changePassword(alice, PASSWORD, PASSWORD))).toEqual({
        status: 400,
        detail: 'New password cannot be the same as the current one',
      });
    });

    it('changes the password: the new one signs in, the old one no longer does, earlier tokens are revoked', async () => {
      const { service, alice, repo, revocations } = setup();
      await service.changePassword(alice, PASSWORD, 'a-new-password');
      expect(await service.authenticate('alice@example.com', 'a-new-password')).toMatchObject({ id: alice.id });
      expect(await service.authenticate('alice@example.com', PASSWORD)).toBeNull();
      expect(repo.stored(alice.id)?.tokenVersion).toBe(1);
      expect(revocations.published).toEqual([{ user: alice.id }]);
    });

    it('changes the e-mail only with the current password', async () => {
      const { service, alice, repo } = setup();
      expect(await failure(service.updateMe(alice, { email: 'mallory@example.com' }))).toEqual({
        status: 400,
        detail: 'The current password is required to change the e-mail',
      });
      expect(
        await failure(service.updateMe(alice, { email: 'mallory@example.com', currentPassword: 'wrong-password' })),
      ).toEqual({
        status: 400,
        detail: 'Incorrect password',
      });
      expect(repo.stored(alice.id)?.email).toBe('alice@example.com');
      await service.updateMe(alice, { email: 'alice2@example.com', currentPassword: PASSWORD });
      expect(repo.stored(alice.id)?.email).toBe('alice2@example.com');
      // The name needs no password.
      await service.updateMe(alice, { fullName: 'Alice B' });
      expect(repo.stored(alice.id)?.fullName).toBe('Alice B');
    });

    it('lets an ordinary user delete their account but not a superuser', async () => {
      const { service, repo, admin, alice } = setup();
      expect(await failure(service.deleteMe(admin))).toEqual({
        status: 403,
        detail: 'Super users are not allowed to delete themselves',
      });
      expect(repo.stored(admin.id)).toBeDefined();
      await service.deleteMe(alice);
      expect(repo.stored(alice.id)).toBeUndefined();
    });
  });

  describe('the audit trail', () => {
    it('records who changed which rights, before and after, and never a password or its hash', async () => {
      const { service, repo, admin, alice, audit } = setup();
      const bob = await service.create(
        { email: 'bob@example.com', password: 'bobs-password-1', isSuperuser: false },
        admin.email,
      );
      await service.update(admin, alice.id, { isSuperuser: true, password: 'a-password-for-alice' });
      await service.changePassword(repo.stored(alice.id)!, 'a-password-for-alice', 'alice-chose-this-1');
      await service.delete(admin, bob.id);
      expect(audit.entries.map((e) => [e.actor, e.entity, e.entityId, e.action])).toEqual([
        ['admin@example.com', 'user', bob.id, 'create'],
        ['admin@example.com', 'user', alice.id, 'update'],
        ['admin@example.com', 'user', alice.id, 'password'],
        ['alice@example.com', 'user', alice.id, 'password'],
        ['admin@example.com', 'user', bob.id, 'delete'],
      ]);
      expect(audit.entries[0]!.after).toEqual({
        email: 'bob@example.com',
        full_name: null,
        is_active: true,
        is_superuser: false,
      });
      expect(audit.entries[1]).toMatchObject({ before: { is_superuser: false }, after: { is_superuser: true } });
      const written = JSON.stringify(audit.entries);
      for (const secret of ['bobs-password-1', 'a-password-for-alice', 'alice-chose-this-1', '$argon2', HASH])
        expect(written).not.toContain(secret);
    });
  });

  describe('read and delete by id', () => {
    it('lets a user read themself only; a superuser reads anyone', async () => {
      const { service, admin, alice } = setup();
      expect(await service.getAs(alice, alice.id)).toMatchObject({ email: 'alice@example.com' });
      expect((await failure(service.getAs(alice, admin.id))).status).toBe(403);
      // An ordinary user cannot probe which ids exist.
      expect((await failure(service.getAs(alice, '00000000-0000-4000-8000-000000000000'))).status).toBe(403);
      expect(await service.getAs(admin, alice.id)).toMatchObject({ email: 'alice@example.com' });
      expect((await failure(service.getAs(admin, '00000000-0000-4000-8000-000000000000'))).status).toBe(404);
    });

    it('forbids a superuser to delete themself; deletes others; 404 for an unknown id', async () => {
      const { service, repo, admin, alice } = setup();
      expect(await failure(service.delete(admin, admin.id))).toEqual({
        status: 403,
        detail: 'Super users are not allowed to delete themselves',
      });
      expect(repo.stored(admin.id)).toBeDefined();
      await service.delete(admin, alice.id);
      expect(repo.stored(alice.id)).toBeUndefined();
      expect((await failure(service.delete(admin, alice.id))).status).toBe(404);
    });
  });

  describe('authenticate', () => {
    it('finds the account regardless of letter case and rejects a wrong password or an unknown e-mail', async () => {
      const { service, alice } = setup();
      expect(await service.authenticate('ALICE@Example.com', PASSWORD)).toMatchObject({ id: alice.id });
      expect(await service.authenticate('alice@example.com', 'wrong-password')).toBeNull();
      expect(await service.authenticate('nobody@example.com', PASSWORD)).toBeNull();
    });
  });

  describe('ensureFirstSuperuser', () => {
    it('creates the configured superuser once', async () => {
      const repo = new FakeUsersRepository();
      const service = new UsersService(repo.asRepository(), hasher, new FakeRevocations().as(), new FakeAudit().as());
      expect(await service.ensureFirstSuperuser('Root@Example.com', 'root-password')).toBe('created');
      expect(await service.ensureFirstSuperuser('root@example.com', 'other-password')).toBe('exists');
      expect(repo.size).toBe(1);
      const root = await service.authenticate('root@example.com', 'root-password');
      expect(root).toMatchObject({ isSuperuser: true, isActive: true });
    });
  });

  it('lists accounts with the total count, paged by skip and limit', async () => {
    const { service } = setup();
    const page = await service.list(1, 1);
    expect(page.count).toBe(2);
    expect(page.data.map((u) => u.email)).toEqual(['alice@example.com']);
  });
});
