import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import { UserEntity } from '@furnace/db';
import { isUniqueViolation } from '../core/errors';

export class DuplicateEmailError extends Error {}

/** All database I/O of users. */
@Injectable()
export class UsersRepository {
  private readonly repo: Repository<UserEntity>;

  constructor(dataSource: DataSource) {
    this.repo = dataSource.getRepository(UserEntity);
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.repo.findOneBy({ id });
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.repo.findOneBy({ email: email.toLowerCase() });
  }

  async list(skip: number, limit: number): Promise<{ data: UserEntity[]; count: number }> {
    const [data, count] = await this.repo.findAndCount({
      order: { createdAt: 'ASC', email: 'ASC' },
      skip,
      take: limit,
    });
    return { data, count };
  }

  /** The addresses of the active superusers (who approve sign-ups). */
  async activeSuperuserEmails(): Promise<string[]> {
    const rows = await this.repo.find({
      where: { isSuperuser: true, isActive: true },
      select: { email: true },
      order: { email: 'ASC' },
    });
    return rows.map((r) => r.email);
  }

  /** `em`: the change's transaction (the users' writes take one so that their audit entries are stored with them). */
  async create(
    fields: Pick<UserEntity, 'email' | 'fullName' | 'hashedPassword' | 'isActive' | 'isSuperuser'> &
      Partial<Pick<UserEntity, 'mustChangePassword'>>,
    em?: EntityManager,
  ): Promise<UserEntity> {
    const repo = em ? em.getRepository(UserEntity) : this.repo;
    const user = repo.create({ ...fields, id: randomUUID(), email: fields.email.toLowerCase() });
    try {
      return await repo.save(user);
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateEmailError();
      throw e;
    }
  }

  async update(
    user: UserEntity,
    fields: Partial<
      Pick<
        UserEntity,
        'email' | 'fullName' | 'hashedPassword' | 'isActive' | 'isSuperuser' | 'tokenVersion' | 'mustChangePassword'
      >
    >,
    em?: EntityManager,
  ): Promise<UserEntity> {
    const next = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as typeof fields;
    if (next.email) next.email = next.email.toLowerCase();
    if (Object.keys(next).length === 0) return user;
    try {
      await (em ? em.getRepository(UserEntity) : this.repo).update({ id: user.id }, next);
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateEmailError();
      throw e;
    }
    return Object.assign(user, next);
  }

  async delete(id: string, em?: EntityManager): Promise<void> {
    await (em ? em.getRepository(UserEntity) : this.repo).delete({ id });
  }
}
