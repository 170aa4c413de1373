import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { loadConfig, type EmailConfig } from '../../src/config.ts';

/** A self-signed certificate for 127.0.0.1, and the file holding it (SMTP_CA_FILE trusts it). */
export interface TestCertificate {
  readonly key: string;
  readonly cert: string;
  readonly caFile: string;
  remove(): void;
}

export function makeCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-smtp-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'ignore' });
  return {
    key: readFileSync(join(dir, 'key.pem'), 'utf8'),
    cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    caFile: join(dir, 'cert.pem'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A mail a test SMTP server accepted, with what its session knew. */
export interface ReceivedMail {
  readonly raw: string;
  readonly from: string;
  readonly to: string[];
  readonly user: string | undefined;
  /** Whether the connection was TLS (from the start or after STARTTLS) when the mail came. */
  readonly secure: boolean;
  header(name: string): string | undefined;
}

export interface TestSmtpServer {
  readonly port: number;
  readonly received: ReceivedMail[];
  holding(): number;
  close(): Promise<void>;
}

/** An SMTP sink and the service's EMAIL settings that send to it. */
export interface MailSink {
  readonly sink: TestSmtpServer;
  readonly email: EmailConfig;
  /** The mails received so far with `address` among their recipients, in order. */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

/** The built-in sender asks for STARTTLS: the sink offers it with a certificate the service is told to trust. */
export async function startMailSink(): Promise<MailSink> {
  const certificate = makeCertificate();
  try {
    const sink = await startSmtpServer({ certificate });
    const email = { ...loadConfig({}).email, smtpUrl: `smtp://127.0.0.1:${sink.port}`, smtpCaFile: certificate.caFile, pollMs: 200 };
    const close = async () => {
      await sink.close();
      certificate.remove();
    };
    return { sink, email, to: (address) => sink.received.filter((mail) => mail.to.includes(address)), close };
  } catch (error) {
    certificate.remove();
    throw error;
  }
}

/** Reads a header of a raw message (unfolded), case-insensitively. */
function headerOf(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/, 1)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 (or `address`): STARTTLS offered with `certificate` (TLS from the first byte with
 * `tls`), AUTH required for `users` (none: no auth), every accepted mail kept in `received`; `holding` counts the
 * mails whose data came while `hold` held them.
 */
export async function startSmtpServer(options: {
  certificate?: TestCertificate;
  tls?: boolean;
  users?: Record<string, string>;
  /** While it returns true, a mail's data is read and never answered: the sender waits, mid-send. */
  hold?: () => boolean;
  /** A reply it answers AUTH with instead of checking the credentials (a server's temporary refusal), while it gives one. */
  authReply?: () => { responseCode: number; message: string } | undefined;
  /** A reply it answers a recipient (RCPT TO) with instead of taking it, while it gives one. */
  rcptReply?: (address: string) => { responseCode: number; message: string } | undefined;
  address?: string;
}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  let held = 0;
  const users = options.users;
  const server = new SMTPServer({
    secure: options.tls === true,
    ...(options.certificate === undefined ? { disabledCommands: ['STARTTLS'] } : { key: options.certificate.key, cert: options.certificate.cert }),
    ...(users === undefined ? { authOptional: true, disabledCommands: ['AUTH', ...(options.certificate === undefined ? ['STARTTLS'] : [])] } : {}),
    logger: false,
    onAuth(auth, _session, callback) {
      const reply = options.authReply?.();
      if (reply !== undefined) callback(Object.assign(new Error(reply.message), { responseCode: reply.responseCode }));
      else if (users !== undefined && auth.username !== undefined && users[auth.username] === auth.password) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      const reply = options.rcptReply?.(address.address);
      if (reply === undefined) callback();
      else callback(Object.assign(new Error(reply.message), { responseCode: reply.responseCode }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (options.hold?.() === true) {
          held += 1;
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          raw,
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: session.user as string | undefined,
          secure: session.secure,
          header: (name) => headerOf(raw, name),
        });
        callback();
      });
    },
  });
  // A sender killed mid-send, or an attempt closed at its deadline, resets its connection: smtp-server emits that as an
  // error, which would be uncaught; what the tests check is what was received.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, options.address ?? '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, received, holding: () => held, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A mail's body as sent: quoted-printable undone, so that its links read as written. */
export const decodedMail = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** A request an HTTP receiver got. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export interface HttpReceiver {
  readonly url: string;
  readonly received: ReceivedRequest[];
  /** How the next requests are answered: a status, headers and a body as JSON (or `raw`, as it is), or `hang` (never answered). */
  answer: (request: ReceivedRequest) => { status: number; headers?: Record<string, string>; body?: unknown; raw?: string } | 'hang';
  close(): Promise<void>;
}

/** A local HTTP server standing in for a provider's API: keeps every request, answers as `answer` says. */
export async function startHttpReceiver(): Promise<HttpReceiver> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const got: ReceivedRequest = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(got);
      const answer = receiver.answer(got);
      if (answer === 'hang') return;
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.raw ?? (answer.body === undefined ? '' : JSON.stringify(answer.body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: HttpReceiver = {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: () => ({ status: 202 }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
