import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import type { HttpClient } from '../support/http.ts';

/**
 * GET /email/deliveries newest first (`order=newest`) and oldest first (the default): keyset pages both ways, cursors
 * bound to their order, the filters alongside, and a scope's own mails only.
 */
let app: TestApp;
let other: HttpClient;
let tenantA: string;
let tenantB: string;
/** Tenant A's test mails in the order they were queued. */
let ofA: string[];
let ofB: string;
let ofApplication: string;
let ofOtherApplication: string;

const inTenant = (tenantId: string, path: string) => `/applications/${app.root.applicationId}/tenants/${tenantId}${path}`;

async function sendTest(client: HttpClient, path: string, to: string): Promise<string> {
  const response = await client.post(path, { to });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as string;
}

type Listed = { data: { id: string; to: string; status: string }[]; next: string | null };

async function list(path: string, client: HttpClient = app.http): Promise<Listed> {
  const response = await client.get(path);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as Listed;
}

const ids = (page: Listed) => page.data.map((delivery) => delivery.id);

beforeAll(async () => {
  app = await startTestApp();
  tenantA = await app.createTenant('A');
  tenantB = await app.createTenant('B');
  ofA = [];
  for (const to of ['one@example.com', 'two@example.com', 'two@example.com']) ofA.push(await sendTest(app.http, inTenant(tenantA, '/email/test'), to));
  ofB = await sendTest(app.http, inTenant(tenantB, '/email/test'), 'two@example.com');
  ofApplication = await sendTest(app.http, '/email/test', 'two@example.com');
  const another = await app.bootstrapAnother();
  other = app.as({ apiKey: another.apiKey });
  ofOtherApplication = await sendTest(other, '/email/test', 'two@example.com');
});
afterAll(async () => app?.close());

describe('the deliveries list’s order', () => {
  it('is oldest first by default and newest first with order=newest, paged both ways', async () => {
    expect(ids(await list(inTenant(tenantA, '/email/deliveries')))).toEqual(ofA);
    expect(ids(await list(inTenant(tenantA, '/email/deliveries?order=oldest')))).toEqual(ofA);
    const newest = [...ofA].reverse();
    expect(ids(await list(inTenant(tenantA, '/email/deliveries?order=newest')))).toEqual(newest);

    const first = await list(inTenant(tenantA, '/email/deliveries?order=newest&pageSize=2'));
    expect(ids(first)).toEqual(newest.slice(0, 2));
    const second = await list(inTenant(tenantA, `/email/deliveries?order=newest&pageSize=2&cursor=${encodeURIComponent(first.next!)}`));
    expect(second).toMatchObject({ data: [{ id: newest[2] }], next: null });

    const firstOldest = await list(inTenant(tenantA, '/email/deliveries?pageSize=2'));
    expect(ids(firstOldest)).toEqual(ofA.slice(0, 2));
    const secondOldest = await list(inTenant(tenantA, `/email/deliveries?order=oldest&pageSize=2&cursor=${encodeURIComponent(firstOldest.next!)}`));
    expect(secondOldest).toMatchObject({ data: [{ id: ofA[2] }], next: null });
  });

  it('combines with the filters: to, status, templateKey', async () => {
    expect(ids(await list(inTenant(tenantA, '/email/deliveries?order=newest&to=two@example.com')))).toEqual([ofA[2], ofA[1]]);
    expect(ids(await list(inTenant(tenantA, '/email/deliveries?order=newest&templateKey=invitation')))).toEqual([]);
    expect(ids(await list(inTenant(tenantA, '/email/deliveries?order=newest&status=failed')))).toEqual([]);
    // Every mail has one of the three statuses: together they are the whole list, each newest first.
    const byStatus = await Promise.all(['queued', 'sent', 'failed'].map((status) => list(inTenant(tenantA, `/email/deliveries?order=newest&status=${status}`))));
    for (const page of byStatus) expect(ids(page)).toEqual([...ofA].reverse().filter((id) => ids(page).includes(id)));
    expect(byStatus.flatMap(ids).sort()).toEqual([...ofA].sort());
  });

  it('finds a recipient by its mailbox, as the users’ email filter does: its domain in Punycode or Unicode, in any case', async () => {
    // An application of its own: the other tests count the mails of theirs.
    const own = app.as({ apiKey: (await app.bootstrapAnother()).apiKey });
    const id = await sendTest(own, '/email/test', 'Ada@bücher.example');
    for (const to of ['Ada@bücher.example', 'ada@xn--bcher-kva.example', 'ADA@BÜCHER.EXAMPLE', 'ada@bu\u0308cher.example']) {
      expect(ids(await list(`/email/deliveries?to=${encodeURIComponent(to)}`, own)), to).toEqual([id]);
    }
    expect(ids(await list(`/email/deliveries?to=${encodeURIComponent('ada@bucher.example')}`, own))).toEqual([]);
    // A mail queued before its mailbox was kept (migration 0071) is found by its address in any ASCII case, as before it.
    await app.sql('update email_delivery set to_key = null where id = ?', [id]);
    expect(ids(await list(`/email/deliveries?to=${encodeURIComponent('ADA@bücher.example')}`, own))).toEqual([id]);
  });

  it('refuses a cursor of one order in the other, a tampered cursor, and an unknown order, with their field', async () => {
    const newest = await list(inTenant(tenantA, '/email/deliveries?order=newest&pageSize=1'));
    const oldest = await list(inTenant(tenantA, '/email/deliveries?pageSize=1'));
    const tampered = `${newest.next!.slice(0, -1)}${newest.next!.endsWith('A') ? 'B' : 'A'}`;
    const refusals: [string, string][] = [
      [`pageSize=1&cursor=${encodeURIComponent(newest.next!)}`, 'cursor'],
      [`order=oldest&pageSize=1&cursor=${encodeURIComponent(newest.next!)}`, 'cursor'],
      [`order=newest&pageSize=1&cursor=${encodeURIComponent(oldest.next!)}`, 'cursor'],
      // The same page with another filter is another list.
      [`order=newest&to=two@example.com&pageSize=1&cursor=${encodeURIComponent(newest.next!)}`, 'cursor'],
      [`order=newest&pageSize=1&cursor=${encodeURIComponent(tampered)}`, 'cursor'],
      ['order=latest', 'order'],
      ['order=NEWEST', 'order'],
      ['order=newest&status=lost', 'status'],
      ['order=newest&to=not-an-address', 'to'],
    ];
    for (const [query, field] of refusals) {
      const response = await app.http.get(inTenant(tenantA, `/email/deliveries?${query}`));
      expect(response.status, query).toBe(422);
      expect(response.body, query).toMatchObject({ code: 'validation_error', field });
    }
  });

  it('shows a scope its own mails only: a tenant its own, an application its own and its tenants’, never another application’s', async () => {
    expect(ids(await list(inTenant(tenantB, '/email/deliveries?order=newest')))).toEqual([ofB]);
    const ofApp = ids(await list('/email/deliveries?order=newest&pageSize=100'));
    expect(ofApp).toEqual([ofApplication, ofB, ...[...ofA].reverse()]);
    expect(ofApp).not.toContain(ofOtherApplication);
    expect(ids(await list('/email/deliveries?order=newest', other))).toEqual([ofOtherApplication]);
    // Another application's tenant path is not found, whatever the order.
    expect((await other.get(inTenant(tenantA, '/email/deliveries?order=newest'))).status).toBe(404);
  });

  it('through GraphQL, with the same refusals', async () => {
    const query = `query($tenantId: UUID, $order: EmailDeliveryOrder, $cursor: String) {
      emailDeliveries(tenantId: $tenantId, order: $order, pageSize: 2, cursor: $cursor) { data { id } next }
    }`;
    const first = await app.http.graphql(query, { tenantId: tenantA, order: 'newest' });
    expect(first.body.errors).toBeUndefined();
    const page = first.body.data.emailDeliveries as { data: { id: string }[]; next: string };
    expect(page.data.map(({ id }) => id)).toEqual([ofA[2], ofA[1]]);
    const second = await app.http.graphql(query, { tenantId: tenantA, order: 'newest', cursor: page.next });
    expect(second.body.data).toEqual({ emailDeliveries: { data: [{ id: ofA[0] }], next: null } });
    const crossed = await app.http.graphql(query, { tenantId: tenantA, order: 'oldest', cursor: page.next });
    expect(crossed.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'cursor' });
    const unknown = await app.http.graphql(query, { tenantId: tenantA, order: 'latest' });
    expect(unknown.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'order' });
    const foreign = await other.graphql(query, { order: 'newest' });
    expect(foreign.body.data.emailDeliveries.data).toEqual([{ id: ofOtherApplication }]);
  });
});
