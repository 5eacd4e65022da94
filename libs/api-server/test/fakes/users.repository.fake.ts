import { randomUUID } from 'node:crypto';
import { UserEntity } from '@furnace/db';
import { DuplicateEmailError, type UsersRepository } from '../../src/users/users.repository';

type UserFields = Pick<UserEntity, 'email' | 'fullName' | 'hashedPassword' | 'isActive' | 'isSuperuser'> &
  Partial<Pick<UserEntity, 'tokenVersion' | 'mustChangePassword'>>;

/**
 * UsersRepository's contract in memory: e-mails stored lower-cased and unique (DuplicateEmailError),
 * each read returning a fresh copy as a database would.
 */
export class FakeUsersRepository implements Pick<UsersRepository, keyof UsersRepository> {
  private readonly rows = new Map<string, UserEntity>();

  /** Puts an account in place without going through the service (no hashing cost). */
  seed(fields: Partial<UserFields> & Pick<UserFields, 'email' | 'hashedPassword'>): UserEntity {
    const row = Object.assign(new UserEntity(), {
      id: randomUUID(),
      fullName: null,
      isActive: true,
      isSuperuser: false,
      tokenVersion: 0,
      mustChangePassword: false,
      createdAt: new Date(),
      ...fields,
      email: fields.email.toLowerCase(),
    });
    this.assertUnique(row.email, row.id);
    this.rows.set(row.id, row);
    return copy(row);
  }

  /** What is stored, bypassing the service (for assertions). */
  stored(id: string): UserEntity | undefined {
    const row = this.rows.get(id);
    return row && copy(row);
  }

  get size(): number {
    return this.rows.size;
  }

  async findById(id: string): Promise<UserEntity | null> {
    const row = this.rows.get(id);
    return row ? copy(row) : null;
  }

  async findByEmail(email: string): Promise<UserEntity | null> {
    const row = [...this.rows.values()].find((r) => r.email === email.toLowerCase());
    return row ? copy(row) : null;
  }

  async list(skip: number, limit: number): Promise<{ data: UserEntity[]; count: number }> {
    const all = [...this.rows.values()].sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.email.localeCompare(b.email),
    );
    return { data: all.slice(skip, skip + limit).map(copy), count: all.length };
  }

  async activeSuperuserEmails(): Promise<string[]> {
    return [...this.rows.values()]
      .filter((r) => r.isSuperuser && r.isActive)
      .map((r) => r.email)
      .sort();
  }

  async create(fields: UserFields): Promise<UserEntity> {
    return this.seed(fields);
  }

  async update(user: UserEntity, fields: Partial<UserFields>): Promise<UserEntity> {
    const next = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<UserFields>;
    if (next.email) next.email = next.email.toLowerCase();
    const row = this.rows.get(user.id);
    if (row) {
      if (next.email) this.assertUnique(next.email, row.id);
      Object.assign(row, next);
    }
    return Object.assign(user, next);
  }

  async delete(id: string): Promise<void> {
    this.rows.delete(id);
  }

  /** Typed as the real repository for the services' constructors (it has a private member the fake lacks). */
  asRepository(): UsersRepository {
    return this as unknown as UsersRepository;
  }

  private assertUnique(email: string, id: string): void {
    if ([...this.rows.values()].some((r) => r.email === email && r.id !== id)) throw new DuplicateEmailError();
  }
}

const copy = (u: UserEntity): UserEntity => Object.assign(new UserEntity(), u, { createdAt: new Date(u.createdAt) });
