import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ApiConfig } from '@furnace/config';
import type { UserEntity } from '@furnace/db';
import { APP_CONFIG } from '../core/tokens';
import { MailService } from '../mail/mail.service';
import { signupApprovalEmail } from '../mail/templates';
import { DEFAULT_LANGUAGE } from '@furnace/text';
import { UsersRepository } from './users.repository';

/** Tells the superusers that an account waits for their approval, with a link to /admin. */
@Injectable()
export class SignupNotice {
  private readonly logger = new Logger('Signup');

  constructor(
    private readonly users: UsersRepository,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: ApiConfig,
  ) {}

  /**
   * Not awaited by the sign-up: how long the mail server takes (or that it failed) must not tell the
   * caller anything. A failure is logged; the account is in /admin either way.
   */
  notify(user: UserEntity): void {
    void this.send(user).catch((e: Error) =>
      this.logger.warn(`Sign-up notice for ${user.email} not delivered: ${e.message}`),
    );
  }

  /** In the installation's language: superusers keep no language of their own (docs/behaviour.md §1). */
  private async send(user: UserEntity): Promise<void> {
    const link = `${this.config.frontendHost}/admin`;
    const message = signupApprovalEmail({
      brand: this.config.brandName,
      email: user.email,
      fullName: user.fullName,
      link,
      lang: DEFAULT_LANGUAGE,
    });
    for (const to of await this.users.activeSuperuserEmails()) await this.mail.send({ to, ...message });
  }
}
