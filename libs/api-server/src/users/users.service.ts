import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import type { UserEntity } from '@furnace/db';
import { changes, userValues } from '../audit/audit-values';
import { AuditService } from '../audit/audit.service';
import { Revocations } from '../auth/revocations';
import { DuplicateEmailError, UsersRepository } from './users.repository';
import { PasswordHasher } from './password-hasher';

const EMAIL_TAKEN = 'The user with this email already exists in the system';

export type SignupMode = 'approval' | 'open' | 'off';

/**
 * The rules of accounts: who may change what, and what stays unique. Whatever ends an account's
 * access (a new password, deactivation, deletion) raises its token version, so every token issued
 * before stops working at once, and is announced so open live streams close (Revocations).
 * Every change is in the audit trail with who made it (`by`, an e-mail; null: the system), never
 * with a password or its hash.
 */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly revocations: Revocations,
    private readonly audit: AuditService,
  ) {}

  list(skip: number, limit: number) {
    return this.users.list(skip, limit);
  }

  async get(id: string): Promise<UserEntity> {
    const user = await this.users.findById(id);
    if (!user) throw new NotFoundException('The user with this id does not exist in the system');
    return user;
  }

  /** A user may read themself; anyone else needs a superuser. */
  async getAs(actor: UserEntity, id: string): Promise<UserEntity> {
    if (actor.id === id) return actor;
    if (!actor.isSuperuser) throw new ForbiddenException("The user doesn't have enough privileges");
    return this.get(id);
  }

  async create(
    input: {
      email: string;
      password: string;
      fullName?: string | null;
      isActive?: boolean;
      isSuperuser?: boolean;
      mustChangePassword?: boolean;
    },
    by: string | null,
  ): Promise<UserEntity> {
    const hashedPassword = await this.hasher.hash(input.password);
    return this.unique(() =>
      this.audit.transaction(async (em) => {
        const user = await this.users.create(
          {
            email: input.email,
            fullName: input.fullName ?? null,
            hashedPassword,
            isActive: input.isActive ?? true,
            isSuperuser: input.isSuperuser ?? false,
            mustChangePassword: input.mustChangePassword ?? false,
          },
          em,
        );
        await this.audit.record(
          { actor: by, researchId: null, entity: 'user', entityId: user.id, action: 'create', after: userValues(user) },
          em,
        );
        return user;
      }),
    );
  }

  /**
   * Self-registration never grants rights: with `approval` (the default) the account is inactive until
   * a superuser activates it; `open` makes it an active ordinary account; `off` refuses.
   */
  async register(
    mode: SignupMode,
    input: { email: string; password: string; fullName?: string | null },
  ): Promise<UserEntity> {
    if (mode === 'off') throw new ForbiddenException('Sign-up is disabled');
    // Whoever signs up makes the change: the account's own address.
    return this.create({ ...input, isActive: mode === 'open', isSuperuser: false }, input.email.toLowerCase());
  }

  async update(
    actor: UserEntity,
    id: string,
    input: { email?: string; password?: string; fullName?: string | null; isActive?: boolean; isSuperuser?: boolean },
  ): Promise<UserEntity> {
    const user = await this.get(id);
    if (actor.id === id && (input.isActive === false || input.isSuperuser === false)) {
      throw new ForbiddenException('Super users are not allowed to revoke their own rights');
    }
    const { password, ...rest } = input;
    const fields: Parameters<UsersRepository['update']>[1] = { ...rest };
    if (password) fields.hashedPassword = await this.hasher.hash(password);
    const revokes = !!password || (input.isActive === false && user.isActive);
    if (revokes) fields.tokenVersion = user.tokenVersion + 1;
    const before = userValues(user);
    const updated = await this.unique(() =>
      this.audit.transaction(async (em) => {
        const after = await this.users.update(user, fields, em);
        const changed = changes(before, userValues(after));
        if (changed)
          await this.audit.record(
            { actor: actor.email, researchId: null, entity: 'user', entityId: id, action: 'update', ...changed },
            em,
          );
        if (password)
          await this.audit.record(
            {
              actor: actor.email,
              researchId: null,
              entity: 'user',
              entityId: id,
              action: 'password',
              after: { email: after.email },
            },
            em,
          );
        return after;
      }),
    );
    if (revokes) await this.revocations.publish({ user: user.id });
    return updated;
  }

  /** Changing one's e-mail (the login name) needs the current password, as a password change does. */
  async updateMe(
    me: UserEntity,
    input: { email?: string; fullName?: string | null; currentPassword?: string },
  ): Promise<UserEntity> {
    const changesEmail = input.email !== undefined && input.email.toLowerCase() !== me.email;
    if (changesEmail) {
      if (!input.currentPassword)
        throw new BadRequestException('The current password is required to change the e-mail');
      if (!(await this.hasher.verify(me.hashedPassword, input.currentPassword)))
        throw new BadRequestException('Incorrect password');
    }
    const before = userValues(me);
    return this.unique(() =>
      this.audit.transaction(async (em) => {
        const after = await this.users.update(me, { email: input.email, fullName: input.fullName }, em);
        const changed = changes(before, userValues(after));
        if (changed)
          await this.audit.record(
            {
              actor: before.email as string,
              researchId: null,
              entity: 'user',
              entityId: me.id,
              action: 'update',
              ...changed,
            },
            em,
          );
        return after;
      }),
    );
  }

  async changePassword(me: UserEntity, current: string, next: string): Promise<void> {
    if (!(await this.hasher.verify(me.hashedPassword, current))) throw new BadRequestException('Incorrect password');
    if (current === next) throw new BadRequestException('New password cannot be the same as the current one');
    await this.setPassword(me, next);
  }

  /**
   * Sets the user's new password (their own change, or a reset with a recovery link): every token issued
   * before stops working, open streams close. The trail says that it changed, never what to.
   */
  async setPassword(user: UserEntity, password: string): Promise<void> {
    const hashedPassword = await this.hasher.hash(password);
    await this.audit.transaction(async (em) => {
      await this.users.update(
        user,
        { hashedPassword, tokenVersion: user.tokenVersion + 1, mustChangePassword: false },
        em,
      );
      await this.audit.record(
        {
          actor: user.email,
          researchId: null,
          entity: 'user',
          entityId: user.id,
          action: 'password',
          after: { email: user.email },
        },
        em,
      );
    });
    await this.revocations.publish({ user: user.id });
  }

  async deleteMe(me: UserEntity): Promise<void> {
    if (me.isSuperuser) throw new ForbiddenException('Super users are not allowed to delete themselves');
    await this.audit.transaction(async (em) => {
      await this.users.delete(me.id, em);
      await this.audit.record(
        {
          actor: me.email,
          researchId: null,
          entity: 'user',
          entityId: me.id,
          action: 'delete',
          before: userValues(me),
        },
        em,
      );
    });
    await this.revocations.publish({ user: me.id });
  }

  async delete(actor: UserEntity, id: string): Promise<void> {
    if (actor.id === id) throw new ForbiddenException('Super users are not allowed to delete themselves');
    const user = await this.get(id);
    await this.audit.transaction(async (em) => {
      await this.users.delete(id, em);
      await this.audit.record(
        {
          actor: actor.email,
          researchId: null,
          entity: 'user',
          entityId: id,
          action: 'delete',
          before: userValues(user),
        },
        em,
      );
    });
    await this.revocations.publish({ user: id });
  }

  /** The account for a login, or null; takes the same time whether or not the e-mail exists. */
  async authenticate(email: string, password: string): Promise<UserEntity | null> {
    const user = await this.users.findByEmail(email);
    if (!user) return this.hasher.verifyNothing(password).then(() => null);
    return (await this.hasher.verify(user.hashedPassword, password)) ? user : null;
  }

  findByEmail(email: string) {
    return this.users.findByEmail(email);
  }

  findById(id: string) {
    return this.users.findById(id);
  }

  activeSuperuserEmails() {
    return this.users.activeSuperuserEmails();
  }

  /**
   * Creates the first superuser from the configuration unless that account exists. Created with the
   * default password, it must choose its own at the first sign-in.
   */
  async ensureFirstSuperuser(
    email: string,
    password: string,
    mustChangePassword = false,
  ): Promise<'created' | 'exists'> {
    if (await this.users.findByEmail(email)) return 'exists';
    try {
      await this.create(
        { email, password, fullName: null, isSuperuser: true, isActive: true, mustChangePassword },
        null,
      );
      return 'created';
    } catch (e) {
      // Another API instance created it at the same moment.
      if (e instanceof ConflictException) return 'exists';
      throw e;
    }
  }

  private async unique<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (e) {
      if (e instanceof DuplicateEmailError) throw new ConflictException(EMAIL_TAKEN);
      throw e;
    }
  }
}
