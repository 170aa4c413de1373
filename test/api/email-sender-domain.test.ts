import { createHash, createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { AuditLog, EmailSenderDomain } from '../../src/db/entities/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { quickEmailConfig } from '../support/email-outbox.ts';
import type { HttpClient } from '../support/http.ts';
import { issueTestKey } from '../support/keys.ts';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../support/mail-receivers.ts';

/**
 * The sender domain: the records GET gives for the From domain of the scope's provider, their check through a real
 * DNS server run by the test (DNS_SERVERS), the DKIM signature of the mail (verified here with the published key, by
 * RFC 6376's relaxed canonicalization), and the return path as envelope sender once verified.
 */
let app: TestApp;
let appPath: string;
let dns: TestDnsServer;
let sink: TestSmtpServer;

beforeAll(async () => {
  dns = await startDnsServer();
  sink = await startSmtpServer({});
  app = await startTestApp({
    email: quickEmailConfig({ allowPrivateHosts: true, dnsServers: [dns.address] }),
  });
  appPath = `/applications/${app.root.applicationId}`;
  expect((await app.http.patch(appPath, { tenancyConfig: { emailProviderScope: 'tenant' } })).status).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await sink?.close();
  await dns?.close();
});

const inTenant = (tenantId: string, path: string) => `${appPath}/tenants/${tenantId}${path}`;
const smtpProvider = (host: string, fromAddress = 'hello@acme.test') => ({ type: 'smtp', fromAddress, smtp: { host, port: sink.port, security: 'none' } });

async function tenantSendingThrough(host: string, fromAddress?: string): Promise<string> {
  const tenantId = await app.createTenant(`Sender ${crypto.randomUUID().slice(0, 8)}`);
  const put = await app.http.put(inTenant(tenantId, '/email/provider'), smtpProvider(host, fromAddress));
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return tenantId;
}

type DnsRecord = { purpose: string; type: string; name: string; value: string; found: boolean | null; reason: string | null };
const record = (body: { records: DnsRecord[] }, purpose: string) => body.records.find((candidate) => candidate.purpose === purpose)!;

function publish(entry: DnsRecord) {
  const existing = dns.zone.get(entry.name) ?? {};
  if (entry.type === 'CNAME') dns.zone.set(entry.name, { ...existing, cname: entry.value });
  else dns.zone.set(entry.name, { ...existing, txt: [...(existing.txt ?? []), entry.value] });
}

async function settledMail(client: HttpClient, path: string): Promise<ReceivedMail> {
  const queued = await client.post(`${path}/email/test`, { to: 'ada@example.com' });
  expect(queued.status).toBe(201);
  for (;;) {
    const delivery = await client.get(`${path}/email/deliveries/${queued.body.id as string}`);
    if (delivery.body.status !== 'queued') {
      expect(delivery.body).toMatchObject({ status: 'sent', lastError: null });
      return sink.received.find((mail) => mail.header('message-id') === delivery.body.messageId)!;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('GET /email/sender-domain', () => {
  it('shows the built-in sender’s domain as managed, with nothing to publish', async () => {
    const response = await app.http.get('/email/sender-domain');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      domain: 'gatehouse.test', fromAddress: 'no-reply@gatehouse.test', providerType: 'gatehouse', source: null,
      status: 'managed', verifiedAt: null, checkedAt: null, failingSince: null, records: [],
    });
  });

  it('gives a tenant’s SMTP sender domain its SPF, DKIM and return-path records, unverified, with one key made once (audited)', async () => {
    const tenantId = await tenantSendingThrough('localhost');
    const response = await app.http.get(inTenant(tenantId, '/email/sender-domain'));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ domain: 'acme.test', fromAddress: 'hello@acme.test', providerType: 'smtp', source: 'customized', status: 'unverified', verifiedAt: null, checkedAt: null });
    const dkim = record(response.body, 'dkim');
    expect(response.body.records).toEqual([
      { purpose: 'spf', type: 'TXT', name: 'acme.test', value: 'v=spf1 a:localhost ~all', found: null, reason: null },
      { purpose: 'dkim', type: 'TXT', name: expect.stringMatching(/^gatehouse-[0-9a-f]{8}\._domainkey\.acme\.test$/), value: expect.stringMatching(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/), found: null, reason: null },
      { purpose: 'return_path', type: 'CNAME', name: 'bounces.acme.test', value: 'localhost', found: null, reason: null },
    ]);
    // The public key is a 2048-bit RSA key; the private one is stored sealed.
    const key = createPublicKey({ key: Buffer.from(dkim.value.split('p=')[1]!, 'base64'), format: 'der', type: 'spki' });
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const [row] = await app.gatehouse.services.orm.em.fork().find(EmailSenderDomain, { applicationId: app.root.applicationId, tenantId }, { filters: false });
    expect(row!.dkimPrivateKey).not.toContain('PRIVATE KEY');
    expect(app.gatehouse.services.storedSecrets.decrypt(row!.dkimPrivateKey)).toContain('BEGIN PRIVATE KEY');

    // Asked again (and over GraphQL): the same key, no second record of its making.
    const again = await app.http.graphql(
      'query($appId: UUID, $tenantId: UUID) { emailSenderDomain(appId: $appId, tenantId: $tenantId) { status records { purpose name value } } }',
      { appId: app.root.applicationId, tenantId },
    );
    expect(again.body.errors).toBeUndefined();
    expect(again.body.data.emailSenderDomain.records[1]).toEqual({ purpose: 'dkim', name: dkim.name, value: dkim.value });
    const made = await app.gatehouse.services.orm.em.fork().find(AuditLog, { targetId: row!.id }, { filters: false });
    expect(made.map((entry) => [entry.action, entry.tenantId])).toEqual([['email_sender_domain.created', tenantId]]);
    expect(JSON.stringify(made[0]!.after)).not.toContain('PRIVATE');
  });

  it('gives each owner of a domain its own key, so that no other tenant can sign as it', async () => {
    const first = await tenantSendingThrough('localhost', 'hello@shared.test');
    const second = await tenantSendingThrough('localhost', 'hello@shared.test');
    const [a, b] = await Promise.all([first, second].map(async (tenantId) => record((await app.http.get(inTenant(tenantId, '/email/sender-domain'))).body, 'dkim')));
    expect(a!.name).not.toBe(b!.name);
    expect(a!.value).not.toBe(b!.value);
  });

  it('shows an inheriting tenant the application’s domain, and an HTTP provider’s as managed', async () => {
    const tenantId = await app.createTenant('Inheriting');
    expect((await app.http.get(inTenant(tenantId, '/email/sender-domain'))).body).toMatchObject({ providerType: 'gatehouse', source: 'inherited', status: 'managed', records: [] });
    expect((await app.http.put(inTenant(tenantId, '/email/provider'), { type: 'sendgrid', fromAddress: 'hi@http.test', secrets: { apiKey: 'SG.key' } })).status).toBe(200);
    expect((await app.http.get(inTenant(tenantId, '/email/sender-domain'))).body).toMatchObject({ domain: 'http.test', providerType: 'sendgrid', source: 'customized', status: 'managed', records: [] });
  });
});

describe('POST /email/sender-domain/verify', () => {
  it('checks each record through DNS, signs the mail with DKIM throughout, and sends from the return path once verified', async () => {
    const tenantId = await tenantSendingThrough('localhost', 'hello@verify.test');
    const path = inTenant(tenantId, '');
    const records = (await app.http.get(`${path}/email/sender-domain`)).body as { records: DnsRecord[] };

    const nothing = await app.http.post(`${path}/email/sender-domain/verify`, {});
    expect(nothing.status).toBe(200);
    expect(nothing.body).toMatchObject({ status: 'unverified', verifiedAt: null, checkedAt: expect.any(String) });
    expect(nothing.body.records.map((r: DnsRecord) => [r.purpose, r.found, r.reason])).toEqual([
      ['spf', false, 'No TXT record at verify.test'],
      ['dkim', false, `No TXT record at ${record(records, 'dkim').name}`],
      ['return_path', false, 'No CNAME record at bounces.verify.test'],
    ]);

    // SPF merged into a record the domain already has, and DKIM: two of three.
    dns.zone.set('verify.test', { txt: ['google-site-verification=abc', 'v=spf1 include:_spf.example.net a:localhost ~all'] });
    publish(record(records, 'dkim'));
    const partly = await app.http.post(`${path}/email/sender-domain/verify`, {});
    expect(partly.body.status).toBe('unverified');
    expect(partly.body.records.map((r: DnsRecord) => r.found)).toEqual([true, true, false]);

    // Signed already (the key is published), still sent from the From address (no return path yet).
    const signed = await settledMail(app.http, path);
    expect(signed.from).toBe('hello@verify.test');
    expect(dkimVerifies(signed.raw, record(records, 'dkim'))).toBe(true);

    publish(record(records, 'return_path'));
    const verified = await app.http.post(`${path}/email/sender-domain/verify`, {});
    expect(verified.body).toMatchObject({ status: 'verified', verifiedAt: expect.any(String) });
    expect((await app.http.get(`${path}/email/sender-domain`)).body).toMatchObject({ status: 'verified', verifiedAt: verified.body.verifiedAt });
    const bounced = await settledMail(app.http, path);
    expect(bounced.from).toBe('bounces@bounces.verify.test');
    expect(bounced.header('from')).toBe('hello@verify.test');
    expect(dkimVerifies(bounced.raw, record(records, 'dkim'))).toBe(true);
    // A tampered body no longer verifies: the check above is a real one.
    expect(dkimVerifies(bounced.raw.replace('This is a test e-mail', 'This is a forged e-mail'), record(records, 'dkim'))).toBe(false);

    // Audited: each check, with what it found.
    const rowId = (await app.gatehouse.services.orm.em.fork().findOneOrFail(EmailSenderDomain, { applicationId: app.root.applicationId, tenantId }, { filters: false })).id;
    const checks = await app.gatehouse.services.orm.em.fork().find(AuditLog, { targetId: rowId, action: 'email_sender_domain.verified' }, { filters: false, orderBy: { id: 'asc' } });
    expect(checks.map((entry) => (entry.after as { verified: boolean }).verified)).toEqual([false, false, true]);

    // A new SMTP server changes the records: unverified until checked again, and no return path for an address.
    expect((await app.http.put(`${path}/email/provider`, smtpProvider('127.0.0.1', 'hello@verify.test'))).status).toBe(200);
    const moved = await app.http.get(`${path}/email/sender-domain`);
    expect(moved.body).toMatchObject({ status: 'unverified', verifiedAt: null });
    expect(moved.body.records.map((r: DnsRecord) => [r.purpose, r.value, r.found])).toEqual([
      ['spf', 'v=spf1 ip4:127.0.0.1 ~all', null],
      ['dkim', record(records, 'dkim').value, true],
    ]);
    expect((await settledMail(app.http, path)).from).toBe('hello@verify.test');
    // Verified again through the address: no return path was asked for, so none is the envelope sender (a MAIL FROM
    // `bounces.verify.test`, which need not resolve, would be refused by receivers that check the sender's domain).
    dns.zone.set('verify.test', { txt: ['v=spf1 ip4:127.0.0.1 ~all'] });
    dns.zone.delete('bounces.verify.test');
    expect((await app.http.post(`${path}/email/sender-domain/verify`, {})).body).toMatchObject({ status: 'verified', verifiedAt: expect.any(String) });
    const throughAddress = await settledMail(app.http, path);
    expect(throughAddress.from).toBe('hello@verify.test');
    expect(dkimVerifies(throughAddress.raw, record(records, 'dkim'))).toBe(true);
  });

  it('names an internationalized From domain’s records in Punycode, as its zone holds them, and verifies and signs it', async () => {
    const tenantId = await tenantSendingThrough('localhost', 'hello@Bücher.test');
    const path = inTenant(tenantId, '');
    const shown = await app.http.get(`${path}/email/sender-domain`);
    expect(shown.body.domain).toBe('xn--bcher-kva.test');
    expect(shown.body.records.map((r: DnsRecord) => r.name)).toEqual([
      'xn--bcher-kva.test', expect.stringMatching(/^gatehouse-[0-9a-f]{8}\._domainkey\.xn--bcher-kva\.test$/), 'bounces.xn--bcher-kva.test',
    ]);
    dns.zone.set('xn--bcher-kva.test', { txt: ['v=spf1 a:localhost ~all'] });
    publish(record(shown.body, 'dkim'));
    publish(record(shown.body, 'return_path'));
    const verified = await app.http.post(`${path}/email/sender-domain/verify`, {});
    expect(verified.body).toMatchObject({ status: 'verified', verifiedAt: expect.any(String) });
    const mail = await settledMail(app.http, path);
    expect(dkimVerifies(mail.raw, record(shown.body, 'dkim'))).toBe(true);
  });

  it('reports a DNS server that does not answer as a failed lookup, and changes nothing else', async () => {
    const silent = await startTestApp({ email: { ...loadConfig({}).email, allowPrivateHosts: true, dnsServers: ['127.0.0.1:9'] } });
    try {
      expect((await silent.http.put('/email/provider', smtpProvider('localhost'))).status).toBe(200);
      const response = await silent.http.post('/email/sender-domain/verify', {});
      expect(response.status).toBe(200);
      expect(response.body.status).toBe('unverified');
      for (const entry of response.body.records as DnsRecord[]) expect(entry.reason).toMatch(/^The DNS lookup of .* failed \(\w+\); try again later$/);
    } finally {
      await silent.close();
    }
  });

  it('needs email:write to verify and email:read to read', async () => {
    const reader = await issueTestKey(app, { permissions: ['email:read'] });
    expect((await reader.get('/email/sender-domain')).status).toBe(200);
    const refused = await reader.post('/email/sender-domain/verify', {});
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
  });

  it('refuses a tenant that inherits the application’s provider (403): the domain is the application’s, and its state is unchanged', async () => {
    expect((await app.http.put('/email/provider', smtpProvider('localhost', 'hello@app-owned.test'))).status).toBe(200);
    const tenantId = await app.createTenant(`Inheriting ${crypto.randomUUID().slice(0, 8)}`);
    const tenantKey = await issueTestKey(app, { permissions: ['*'], tenantId });
    expect((await tenantKey.get('/email/sender-domain')).body).toMatchObject({ domain: 'app-owned.test', source: 'inherited', checkedAt: null });

    // Its own key on the bare path, and the application's key on the tenant's path.
    for (const refused of [await tenantKey.post('/email/sender-domain/verify', {}), await app.http.post(inTenant(tenantId, '/email/sender-domain/verify'), {})]) {
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('forbidden');
    }
    expect((await app.http.get('/email/sender-domain')).body).toMatchObject({ domain: 'app-owned.test', checkedAt: null });
    const audited = await app.sql(`select 1 from audit_log where application_id = ? and action = 'email_sender_domain.verified' and after::text like '%app-owned.test%'`, [app.root.applicationId]);
    expect(audited).toEqual([]);
    // The application's own credentials verify it.
    expect((await app.http.post('/email/sender-domain/verify', {})).body).toMatchObject({ domain: 'app-owned.test', checkedAt: expect.any(String) });
  });
});

/** RFC 6376 relaxed/relaxed verification of the mail's DKIM-Signature with the published record's key. */
function dkimVerifies(raw: string, published: DnsRecord): boolean {
  const [head = '', ...rest] = raw.split(/\r\n\r\n/);
  const body = rest.join('\r\n\r\n');
  const headers = head.split(/\r\n(?![ \t])/).map((line) => ({ name: line.slice(0, line.indexOf(':')).toLowerCase(), line }));
  const signature = headers.find((header) => header.name === 'dkim-signature');
  if (signature === undefined) return false;
  const tags = Object.fromEntries(
    signature.line.slice(signature.line.indexOf(':') + 1).split(';').map((tag) => tag.trim()).filter(Boolean)
      .map((tag) => [tag.slice(0, tag.indexOf('=')), tag.slice(tag.indexOf('=') + 1).replace(/\s+/g, '')]),
  );
  if (tags['a'] !== 'rsa-sha256' || tags['c'] !== 'relaxed/relaxed' || `${tags['s']}._domainkey.${tags['d']}` !== published.name) return false;
  const relaxedHeader = (line: string) => {
    const colon = line.indexOf(':');
    return `${line.slice(0, colon).trim().toLowerCase()}:${line.slice(colon + 1).replace(/\r\n/g, '').replace(/[ \t]+/g, ' ').trim()}`;
  };
  const lines = body.split('\r\n').map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  const canonicalBody = lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
  if (createHash('sha256').update(canonicalBody).digest('base64') !== tags['bh']) return false;
  const used = new Set<number>();
  const signed = (tags['h'] ?? '').toLowerCase().split(':').flatMap((name) => {
    const index = headers.findLastIndex((header, i) => header.name === name && !used.has(i) && header !== signature);
    if (index === -1) return [];
    used.add(index);
    return [`${relaxedHeader(headers[index]!.line)}\r\n`];
  });
  const ownLine = relaxedHeader(signature.line).replace(/(;\s*b=)[^;]*/, '$1');
  const key = createPublicKey({ key: Buffer.from(published.value.split('p=')[1]!, 'base64'), format: 'der', type: 'spki' });
  return verify('sha256', Buffer.from(signed.join('') + ownLine), key, Buffer.from(tags['b'] ?? '', 'base64'));
}
