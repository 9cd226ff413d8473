import { DeliveryError } from './http.ts';

/**
 * E-mail over SMTP. The message and the transport options are built here (pure); sending takes the
 * transport factory as an argument (nodemailer's createTransport in the console), so this package
 * stays free of the mailer's own dependencies.
 */
export interface MailConfig {
  host: string;
  port: number;
  security: 'none' | 'starttls' | 'tls';
  user: string;
  password: string;
  from: string;
  recipients: readonly string[];
}

export interface MailTransportOptions {
  host: string;
  port: number;
  /** Implicit TLS from the first byte (SMTPS, usually port 465). */
  secure: boolean;
  /** STARTTLS is required: a server that does not offer it fails the send. */
  requireTLS: boolean;
  /** No encryption at all, even if the server offers STARTTLS. */
  ignoreTLS: boolean;
  auth?: { user: string; pass: string };
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
  tls?: { ca?: string | string[]; servername?: string };
}

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
}

export type MailTransportFactory = (options: MailTransportOptions) => {
  sendMail(message: MailMessage): Promise<{ accepted?: unknown[]; rejected?: unknown[] }>;
  close?(): void;
};

export function buildMail(config: MailConfig, subject: string, text: string, tls?: MailTransportOptions['tls']): { transport: MailTransportOptions; message: MailMessage } {
  return {
    transport: {
      host: config.host,
      port: config.port,
      secure: config.security === 'tls',
      requireTLS: config.security === 'starttls',
      ignoreTLS: config.security === 'none',
      ...(config.user ? { auth: { user: config.user, pass: config.password } } : {}),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
      ...(tls ? { tls } : {}),
    },
    message: { from: config.from, to: config.recipients.join(', '), subject, text },
  };
}

export async function sendMail(config: MailConfig, subject: string, text: string, createTransport: MailTransportFactory, tls?: MailTransportOptions['tls']): Promise<void> {
  const { transport, message } = buildMail(config, subject, text, tls);
  const mailer = createTransport(transport);
  try {
    const info = await mailer.sendMail(message);
    if ((info.rejected?.length ?? 0) > 0) throw new DeliveryError(`the SMTP server refused ${info.rejected?.map(String).join(', ')}`);
  } catch (error) {
    if (error instanceof DeliveryError) throw error;
    // nodemailer's messages name the step (auth, connection, TLS) and never the password.
    throw new DeliveryError(`SMTP ${config.host}:${config.port}: ${(error as Error).message}`);
  } finally {
    mailer.close?.();
  }
}
