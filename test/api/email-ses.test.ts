import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { quickEmailConfig, settledDelivery } from '../support/email-outbox.ts';
import { startHttpReceiver, type HttpReceiver } from '../support/mail-receivers.ts';

/**
 * What SES is sent: its address fields in 7-bit ASCII (a display name RFC 2047-encoded, a domain in Punycode), a local
 * part that has no ASCII form failed at once, and any 2xx taken as sent, whatever its body says.
 */
let app: TestApp;
let appPath: string;
let ses: HttpReceiver;

beforeAll(async () => {
  ses = await startHttpReceiver();
  app = await startTestApp({ email: quickEmailConfig({ maxAttempts: 3, apiUrls: { ...quickEmailConfig({}).apiUrls, ses: ses.url } }) });
  appPath = `/applications/${app.root.applicationId}`;
  // Each test's provider is a tenant's own, so that the tests do not share one.
  expect((await app.http.patch(appPath, { tenancyConfig: { emailProviderScope: 'tenant' } })).status).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await ses?.close();
});

const inTenant = (tenantId: string, path: string) => `${appPath}/tenants/${tenantId}${path}`;

async function sesTenant(provider: { fromAddress: string; fromName?: string; replyTo?: string }): Promise<string> {
  const tenantId = await app.createTenant(`SES ${crypto.randomUUID().slice(0, 8)}`);
  const put = await app.http.put(inTenant(tenantId, '/email/provider'), {
    type: 'ses', ...provider, ses: { region: 'eu-west-1', accessKeyId: 'AKIAEXAMPLE123456' }, secrets: { secretAccessKey: 'ses-secret' },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return tenantId;
}

async function sendTest(tenantId: string, to: string): Promise<Record<string, any>> {
  const queued = await app.http.post(inTenant(tenantId, '/email/test'), { to });
  expect(queued.status, JSON.stringify(queued.body)).toBe(201);
  return settledDelivery(app.http, inTenant(tenantId, `/email/deliveries/${queued.body.id as string}`));
}

/** The requests SES got for the mail of `messageId`. */
const requestsFor = (messageId: string) => ses.received.filter((request) => request.body.includes(messageId));

/** The text of RFC 2047 encoded words (`B`, UTF-8), checking that each is at most 75 characters. */
function decodedWords(value: string): string {
  return value
    .split(' ')
    .map((word) => {
      expect(word.length).toBeLessThanOrEqual(75);
      const match = /^=\?UTF-8\?B\?([A-Za-z0-9+/=]+)\?=$/.exec(word);
      expect(match, word).not.toBeNull();
      return Buffer.from(match![1]!, 'base64').toString('utf8');
    })
    .join('');
}

describe('SES', () => {
  it('is sent its addresses in ASCII: the name RFC 2047-encoded, the domains in Punycode', async () => {
    const tenantId = await sesTenant({ fromAddress: 'hello@bücher.example', fromName: 'Zoë', replyTo: 'hilfe@bücher.example' });
    ses.answer = () => ({ status: 200, body: { MessageId: 'ses-id' } });
    const delivery = await sendTest(tenantId, 'leser@münchen.example');
    expect(delivery).toMatchObject({ status: 'sent', attempts: 1, providerType: 'ses', lastError: null });
    const [request] = requestsFor(delivery.messageId);
    expect(request!.body).toBe(
      JSON.stringify({
        FromEmailAddress: '=?UTF-8?B?Wm/Dqw==?= <hello@xn--bcher-kva.example>',
        Destination: { ToAddresses: ['leser@xn--mnchen-3ya.example'] },
        ReplyToAddresses: ['hilfe@xn--bcher-kva.example'],
        Content: {
          Simple: {
            Subject: { Data: delivery.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: delivery.text, Charset: 'UTF-8' }, Html: { Data: delivery.html, Charset: 'UTF-8' } },
            Headers: [{ Name: 'Message-ID', Value: delivery.messageId }],
          },
        },
      }),
    );
  });

  it('is sent a long name as several encoded words of whole characters, and an ASCII name quoted as it is', async () => {
    const long = 'Bücherstube Zoë – Ausleihe, Rückgabe und Öffnungszeiten';
    const longTenant = await sesTenant({ fromAddress: 'hello@acme.test', fromName: long });
    ses.answer = () => ({ status: 200, body: { MessageId: 'ses-id' } });
    const longMail = await sendTest(longTenant, 'ada@example.com');
    expect(longMail).toMatchObject({ status: 'sent', attempts: 1 });
    const from = JSON.parse(requestsFor(longMail.messageId)[0]!.body).FromEmailAddress as string;
    const [, words, address] = /^(.*) <(.*)>$/.exec(from)!;
    expect(words!.split(' ').length).toBeGreaterThan(1);
    expect(decodedWords(words!)).toBe(long);
    expect(address).toBe('hello@acme.test');

    const asciiTenant = await sesTenant({ fromAddress: 'hello@acme.test', fromName: 'Acme "Mail"' });
    const asciiMail = await sendTest(asciiTenant, 'ada@example.com');
    expect(JSON.parse(requestsFor(asciiMail.messageId)[0]!.body).FromEmailAddress).toBe('"Acme \\"Mail\\"" <hello@acme.test>');
  });

  it('fails a recipient that has no ASCII form at once, with the reason, and sends SES nothing', async () => {
    const tenantId = await sesTenant({ fromAddress: 'hello@acme.test' });
    ses.answer = () => ({ status: 200, body: { MessageId: 'ses-id' } });
    const refusals = [
      ['zoë@example.com', 'its local part (before @) is not ASCII'],
      // A label that starts with a combining mark: IDNA has no Punycode for it.
      ['ada@\u0301a.example', 'its domain is not a valid internationalized domain name'],
    ];
    for (const [to, reason] of refusals) {
      const delivery = await sendTest(tenantId, to!);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, providerType: 'ses', sentAt: null });
      expect(delivery.lastError).toBe(`ses: ${to} cannot be sent through SES: ${reason}`);
      expect(requestsFor(delivery.messageId)).toEqual([]);
    }
  });

  it('fails a From whose local part is not ASCII at once as well', async () => {
    const tenantId = await sesTenant({ fromAddress: 'zoë@acme.test' });
    const delivery = await sendTest(tenantId, 'ada@example.com');
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1 });
    expect(delivery.lastError).toBe('ses: zoë@acme.test cannot be sent through SES: its local part (before @) is not ASCII');
    expect(requestsFor(delivery.messageId)).toEqual([]);
  });

  it('takes a 200 whose body is not JSON as sent, and sends the mail once', async () => {
    const tenantId = await sesTenant({ fromAddress: 'hello@acme.test' });
    ses.answer = () => ({ status: 200, raw: '<html><body>OK</body></html>' });
    const delivery = await sendTest(tenantId, 'ada@example.com');
    expect(delivery).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(requestsFor(delivery.messageId)).toHaveLength(1);
  });
});
