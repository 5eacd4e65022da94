import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '@furnace/config';
import type { UserEntity } from '@furnace/db';
import { APP_CONFIG } from '../core/tokens';
import { MailService } from '../mail/mail.service';
import { signupApprovalEmail } from '../mail/templates';
import { UsersRepository } from './users.repository';

/** Tells the superusers that an account waits for their approval, with a link to /admin. */
@Injectable()
export class SignupNotice {
  private readonly logger = new Logger('Signup');

  constructor(
    private readonly users: UsersRepository,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Not awaited by the sign-up: how long the mail server takes (or that it failed) must not tell the
   * caller anything. A failure is logged; the account is in /admin either way.
   */
  notify(user: UserEntity): void {
    void this.send(user).catch((e: Error) => this.logger.warn(`Sign-up notice for ${user.email} not delivered: ${e.message}`));
  }

  private async send(user: UserEntity): Promise<void> {
    const message = signupApprovalEmail({ brand: this.config.brandName, email: user.email, fullName: user.fullName, link: `${this.config.frontendHost}/admin` });
    for (const to of await this.users.activeSuperuserEmails()) await this.mail.send({ to, ...message });
  }
}
