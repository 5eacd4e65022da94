import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import type { ApiConfig } from '@furnace/config';
import { APP_CONFIG } from '../core/tokens';

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** The link the message carries, logged in outbox mode so a developer can follow it. */
  link?: string;
}

export class MailDeliveryError extends Error {}

/**
 * Sends e-mail through SMTP when SMTP_HOST is set. Otherwise (embedded mode) each message is written
 * as an .eml file under DATA_DIR/outbox and its path is logged: nothing leaves the machine.
 */
@Injectable()
export class MailService {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter;
  private readonly outbox?: string;

  constructor(@Inject(APP_CONFIG) private readonly config: ApiConfig) {
    if (config.smtp) {
      this.transport = createTransport({
        host: config.smtp.host,
        port: config.smtp.port,
        secure: config.smtp.ssl,
        requireTLS: config.smtp.tls && !config.smtp.ssl,
        ignoreTLS: !config.smtp.tls && !config.smtp.ssl,
        auth: config.smtp.user ? { user: config.smtp.user, pass: config.smtp.password ?? '' } : undefined,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      });
    } else {
      this.outbox = join(config.dataDir, 'outbox');
      this.transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    }
  }

  /** Resolves once the SMTP server accepted the message (or the .eml file is written). */
  async send(msg: MailMessage): Promise<void> {
    const { address, name } = this.config.emailsFrom;
    let info: { message?: unknown; messageId?: string };
    try {
      info = await this.transport.sendMail({
        from: { address, name },
        to: msg.to,
        subject: msg.subject,
        html: msg.html,
        text: msg.text,
      });
    } catch (e) {
      this.logger.warn(`Mail to ${msg.to} not accepted: ${(e as Error).message}`);
      throw new MailDeliveryError((e as Error).message);
    }
    if (this.outbox) {
      // Private to this process's user: the messages carry reset tokens and clients' codes.
      await mkdir(this.outbox, { recursive: true, mode: 0o700 });
      await chmod(this.outbox, 0o700);
      const file = join(
        this.outbox,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${(info.messageId ?? 'mail').replace(/[^\w.-]/g, '')}.eml`,
      );
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      // The file, never the link: a link carries a client's code or a reset token, and logs travel further than DATA_DIR.
      this.logger.log(`Mail to ${msg.to} written to ${file}`);
    }
  }
}
