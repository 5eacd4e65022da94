import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, 3 passes): slow enough to make guessing expensive. */
@Injectable()
export class PasswordHasher {
  private dummy?: Promise<string>;

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  /** Spends the same time as a real check, so a missing account cannot be told apart by timing. */
  async verifyNothing(password: string): Promise<false> {
    this.dummy ??= this.hash('not-a-real-password');
    await this.verify(await this.dummy, password);
    return false;
  }
}
