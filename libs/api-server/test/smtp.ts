import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { login, SUPERUSER, waitFor } from '@furnace/testing';
import { startTestApi, type TestApi } from './harness';

interface ReceivedMail {
  /** Envelope recipients, as the API gave them to the server. */
  to: string[];
  from: string;
  parsed: ParsedMail;
}

export interface TestSmtp {
  port: number;
  received: ReceivedMail[];
  /** Recipients the server refuses (550 at RCPT TO), to exercise delivery failures. */
  refuse: Set<string>;
  /** The first message (received so far or later) for which `match` holds. */
  next(match: (m: ReceivedMail) => boolean, what: string): Promise<ReceivedMail>;
  /** The environment that points the API at this server. */
  env(from: string): Record<string, string>;
  close(): Promise<void>;
}

/** A real SMTP server in the test process, on a free port, keeping every message it accepts. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const refuse = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address.toLowerCase()))
        return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            parsed,
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    refuse,
    next: (match, what) => waitFor(what, () => received.find(match)),
    env: (from) => ({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      SMTP_TLS: 'false',
      SMTP_SSL: 'false',
      EMAILS_FROM_EMAIL: from,
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface MailingApi {
  api: TestApi;
  smtp: TestSmtp;
  /** The superuser's token. */
  admin: string;
  close(): Promise<void>;
}

/** The API (its own database) sending mail as `from` to a real SMTP server in the test process, and the superuser signed in. */
export async function startMailingApi(from: string): Promise<MailingApi> {
  const smtp = await startTestSmtp();
  const api = await startTestApi(smtp.env(from)).catch(async (e: unknown) => {
    await smtp.close();
    throw e;
  });
  return {
    api,
    smtp,
    admin: await login(api, SUPERUSER.email, SUPERUSER.password),
    async close() {
      await api.close();
      await smtp.close();
    },
  };
}
