import { BadRequestException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import type { ApiConfig } from '@furnace/config';
import { APP_CONFIG } from '../core/tokens';
import { MailService } from '../mail/mail.service';
import { resetPasswordEmail } from '../mail/templates';
import type { Language } from '@furnace/text';
import { UsersService } from '../users/users.service';
import { RESET_TOKEN_HOURS, TokenService } from './token.service';

/** Logins, and password recovery by e-mail. */
@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');

  constructor(
    private readonly users: UsersService,
    private readonly tokens: TokenService,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: ApiConfig,
  ) {}

  async login(email: string, password: string): Promise<string> {
    const user = await this.users.authenticate(email, password);
    if (!user) throw new BadRequestException('Incorrect email or password');
    if (!user.isActive) throw new BadRequestException('Inactive user');
    return this.tokens.accessToken(user.id, user.tokenVersion);
  }

  /**
   * Sends the recovery e-mail, in `lang`, when the account exists; the caller learns nothing either way. Delivery
   * is not awaited: an SMTP round trip (or an SMTP failure, a 500) would tell a registered address
   * from an unknown one.
   */
  async recoverPassword(email: string, lang: Language): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user || !user.isActive) return;
    this.mail
      .send({ to: user.email, ...this.recoveryEmail(user.email, user.hashedPassword, lang) })
      .catch((e: Error) => this.logger.warn(`Password recovery e-mail to ${user.email} not delivered: ${e.message}`));
  }

  async recoveryHtml(email: string, lang: Language): Promise<string> {
    const user = await this.users.findByEmail(email);
    if (!user) throw new NotFoundException('The user with this email does not exist in the system');
    return this.recoveryEmail(user.email, user.hashedPassword, lang).html;
  }

  async resetPassword(token: string, newPassword: string): Promise<void> {
    const email = await this.tokens.verifyReset(
      token,
      async (e) => (await this.users.findByEmail(e))?.hashedPassword ?? null,
    );
    const user = email ? await this.users.findByEmail(email) : null;
    if (!user) throw new BadRequestException('Invalid token');
    if (!user.isActive) throw new BadRequestException('Inactive user');
    await this.users.setPassword(user, newPassword);
  }

  private recoveryEmail(email: string, hashedPassword: string, lang: Language) {
    const token = this.tokens.resetToken(email, hashedPassword);
    const link = `${this.config.frontendHost}/reset-password?token=${encodeURIComponent(token)}`;
    return {
      ...resetPasswordEmail({ brand: this.config.brandName, email, link, validHours: RESET_TOKEN_HOURS, lang }),
      link,
    };
  }
}
