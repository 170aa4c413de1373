import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { issueTestKey } from '../support/keys.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

/** What an end user may put in their name, which an HTML e-mail must show as text. */
const HOSTILE = '<img src=x onerror=alert(1)>';

/** A template's parts as GET shows them, to put back. */
const DEFAULT_WELCOME = (template: { subject: string; html: string; text: string }) => ({ subject: template.subject, html: template.html, text: template.text });

/** `count` times `width` letters, from a template of a few dozen characters. */
const repeated = (count: number, width: number) => `{% for a in (1..${count}) %}${'x'.repeat(width)}{% endfor %}`;

// 409 600 one-letter items, well inside the allocation limit; each reject walks them all.
const array = `{% assign s = "${'a'.repeat(100)}" %}{% for i in (1..12) %}{% assign s = s | append: s %}{% endfor %}{% assign items = s | split: "" %}`;
/** Half a minute of filters if nothing stopped it: a render that holds its worker until the 2 s limit ends it. */
const slow = `${array}{{ items | ${'reject: "x" | '.repeat(10)}size }}`;

describe('e-mail templates: what a template can do with hostile variables and loops', () => {
  it('escapes {% echo %} and {% cycle %} in HTML parts as it does {{ }} (only | raw opts out)', async () => {
    for (const html of ['<p>{% echo user.name %}</p>', '<p>{% liquid\necho user.name\n%}</p>', '<p>{% cycle user.name, "b" %}</p>', '<p>{% liquid\ncycle user.name\n%}</p>']) {
      const preview = await app.http.post('/email/templates/welcome/preview', { html, variables: { user: { name: HOSTILE } } });
      expect(preview.status, html).toBe(200);
      expect(preview.body.html, html).toBe('<p>&lt;img src=x onerror=alert(1)&gt;</p>');
    }
    // The explicit opt-out still works for echo, as for {{ }}, on what the application's owner writes.
    const raw = await app.http.post('/email/templates/welcome/preview', { html: '<p>{% echo application.name | raw %}</p>', variables: { application: { name: '<b>x</b>' } } });
    expect(raw.body.html).toBe('<p><b>x</b></p>');
    // A stored template renders the same way: a PUT with echo is kept, and its preview escapes.
    const put = await app.http.put('/email/templates/invitation', { subject: 'Join', html: '<p>{% echo inviter.name %} invites you</p>', text: 'Join' });
    expect(put.status).toBe(200);
    const stored = await app.http.post('/email/templates/invitation/preview', { variables: { inviter: { name: HOSTILE } } });
    expect(stored.body.html).toBe('<p>&lt;img src=x onerror=alert(1)&gt; invites you</p>');
  });

  it('refuses `| raw` on what an end user writes (their name and address, a new address, an inviter, a passkey’s name): 422 naming it, nothing stored', async () => {
    const before = (await app.http.get('/email/templates/welcome')).body;
    const cases: [string, string, string][] = [
      ['welcome', '<p>{{ user.name | raw }}</p>', 'user.name'],
      ['welcome', '<p>{% echo user.email | raw %}</p>', 'user.email'],
      ['welcome', '<p>{{ user.name | upcase | raw }}</p>', 'user.name'],
      ['welcome', '<p>{{ "Hi " | append: user.name | raw }}</p>', 'user.name'],
      ['welcome', '{% assign n = user.name | strip %}<p>{{ n | raw }}</p>', 'user.name'],
      ['email_change', '<p>{{ newEmail | raw }} {{ link }}</p>', 'newEmail'],
      ['invitation', '<p>{{ inviter.name | raw }} {{ link }}</p>', 'inviter.name'],
      ['mfa_enrolled', '<p>{{ clonedPasskey.name | raw }} {{ link }}</p>', 'clonedPasskey.name'],
    ];
    for (const [key, html, variable] of cases) {
      const put = await app.http.put(`/email/templates/${key}`, { subject: 'Hi', html, text: 'Hi {{ link }}' });
      expect(put.status, html).toBe(422);
      expect(put.body, html).toMatchObject({ code: 'validation_error', field: 'html', message: expect.stringContaining(`${variable} is written by the end user`) });
      const preview = await app.http.post(`/email/templates/${key}/preview`, { html, variables: { clonedPasskey: { name: 'Yubi' } } });
      expect(preview.status, html).toBe(422);
      expect(preview.body.field, html).toBe('html');
    }
    expect((await app.http.get('/email/templates/welcome')).body).toEqual(before);
    // Escaped, or in the text part (no HTML there), or on what the service or the application's owner writes: taken.
    const taken = await app.http.put('/email/templates/welcome', {
      subject: '{{ user.name }}',
      html: '<p>{{ user.name }} {{ user.name | upcase }} {{ application.name | raw }} <a href="{{ link | raw }}">go</a></p>',
      text: '{{ user.name | raw }} {{ link }}',
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    const shown = await app.http.post('/email/templates/welcome/preview', { variables: { user: { name: HOSTILE } } });
    expect(shown.body.html).toContain('<p>&lt;img src=x onerror=alert(1)&gt; &lt;IMG SRC=X ONERROR=ALERT(1)&gt; ');
    expect((await app.http.put('/email/templates/welcome', DEFAULT_WELCOME(before))).status).toBe(200);
  });

  it('a template stored with `| raw` on an end user’s value before it was refused prints it escaped, in a preview and in the mail', async () => {
    const saved = await app.http.put('/email/templates/account_deleted', { subject: 'Bye', html: '<p>Bye {{ user.name }}</p>', text: 'Bye' });
    expect(saved.status).toBe(200);
    await app.sql(`update setting set value = jsonb_set(value, '{html}', to_jsonb(?::text)) where application_id = ? and tenant_id is null and feature = 'email_template' and key = 'account_deleted'`, [
      '<p>Bye {{ user.name | raw }}, {{ user.name | downcase | raw }}</p>',
      app.root.applicationId,
    ]);
    const preview = await app.http.post('/email/templates/account_deleted/preview', { variables: { user: { name: HOSTILE } } });
    expect(preview.status).toBe(200);
    expect(preview.body.html).toBe('<p>Bye &lt;img src=x onerror=alert(1)&gt;, &lt;img src=x onerror=alert(1)&gt;</p>');
    const email = `raw-${crypto.randomUUID()}@example.com`;
    const user = await app.http.post('/users', { email, name: HOSTILE });
    expect(user.status).toBe(201);
    expect((await app.http.delete(`/users/${user.body.id}`)).status).toBe(204);
    const [mail] = await app.sql<{ html_body: string }>(`select html_body from email_delivery where to_address = ? and template_key = 'account_deleted'`, [email]);
    expect(mail!.html_body).toBe('<p>Bye &lt;img src=x onerror=alert(1)&gt;, &lt;img src=x onerror=alert(1)&gt;</p>');
    expect((await app.http.put('/email/templates/account_deleted', { subject: 'Bye', html: '<p>Bye</p>', text: 'Bye' })).status).toBe(200);
  });

  it('refuses a template whose output runs to hundreds of megabytes (422), rather than building it', async () => {
    const loop = (body: string) => `{% for a in (1..500) %}{% for b in (1..500) %}${body}{% endfor %}{% endfor %}`;
    const literal = 'x'.repeat(2_000);
    for (const [part, source] of [
      ['text', loop(literal)],
      ['html', loop(literal)],
      ['text', `{% capture s %}${loop(literal)}{% endcapture %}{{ s | size }}`],
    ] as const) {
      const preview = await app.http.post('/email/templates/welcome/preview', { [part]: source });
      expect(preview.status, source.slice(-40)).toBe(422);
      expect(preview.body).toMatchObject({ code: 'validation_error', field: part });
    }
    const put = await app.http.put('/email/templates/welcome', { subject: 'Hi', html: '<p>Hi</p>', text: loop(literal) });
    expect(put.status).toBe(422);
    expect(put.body.field).toBe('text');
    // An ordinary long e-mail still renders.
    const ok = await app.http.post('/email/templates/welcome/preview', { text: `{% for a in (1..100) %}${'y'.repeat(1_000)}{% endfor %}` });
    expect(ok.status).toBe(200);
    expect(ok.body.text).toHaveLength(100_000);
  });

  it('bounds what each part renders to (subject 998, html 200 000, text 100 000 characters): over it, 422 on the part', async () => {
    const tenantId = await app.createTenant('Preview tenant');
    const reader = await issueTestKey(app, { tenantId, permissions: ['email:read'] });
    for (const [part, limit, width] of [
      ['subject', 998, 1],
      ['html', 200_000, 2_000],
      ['text', 100_000, 2_000],
    ] as const) {
      const full = await reader.post('/email/templates/welcome/preview', { [part]: repeated(limit / width, width) });
      expect(full.status, part).toBe(200);
      expect(full.body[part], part).toHaveLength(limit);
      const over = await reader.post('/email/templates/welcome/preview', { [part]: `${repeated(limit / width, width)}x` });
      expect(over.status, part).toBe(422);
      expect(over.body).toEqual({ code: 'validation_error', field: part, message: `${part} is not a valid template: render limit exceeded (the rendered ${part} is over ${limit} characters)` });
    }
    // A few kilobytes asking for megabytes in each part get a short refusal.
    const megabytes = await reader.post('/email/templates/welcome/preview', { subject: repeated(99_999, 80), html: repeated(2_400, 2_000), text: repeated(2_400, 2_000) });
    expect(megabytes.status).toBe(422);
    expect(JSON.stringify(megabytes.body).length).toBeLessThan(200);
    const put = await app.http.put('/email/templates/welcome', { subject: 'Hi', html: repeated(101, 2_000), text: 'Hi' });
    expect(put.status).toBe(422);
    expect(put.body.field).toBe('html');
  });

  it('a stored template that overruns its limits only for a real recipient fails the flow that mails it, as any that does not render', async () => {
    const owner = await app.bootstrapAnother();
    const admin = app.as({ apiKey: owner.apiKey });
    const invitations = `/applications/${owner.applicationId}/tenants/${await app.createTenant('Inviting tenant', owner)}/invitations`;
    // The sample variables' user is ada@example.com: the check of a PUT sees the short branch only.
    const forOthers = (source: string) => `{% unless user.email == "ada@example.com" %}${source}{% endunless %}{{ link }}`;
    for (const [part, source, reason] of [
      ['html', repeated(101, 2_000), 'the rendered html is over 200000 characters'],
      ['text', slow, 'the render ran over 2 s'],
    ] as const) {
      const template = { subject: 'Join {{ tenant.name }}', html: '<p>{{ link }}</p>', text: '{{ link }}', [part]: forOthers(source) };
      expect((await admin.put('/email/templates/invitation', template)).status, part).toBe(200);
      const invited = await admin.post(invitations, { email: 'bob@example.com' });
      expect(invited.status, part).toBe(422);
      expect(invited.body).toMatchObject({ code: 'validation_error', field: part, message: expect.stringContaining(reason) });
    }
    // The transaction that would have issued the invitation queued nothing either.
    expect((await admin.get(invitations)).body.data).toEqual([]);
    expect((await admin.get('/email/deliveries?templateKey=invitation')).body.data).toEqual([]);
  }, 60_000);

  it('holds the render time limit inside filters: a chain of array filters is 422, not a long block of the process', async () => {
    for (const [part, filters] of [
      ['text', 'reject: "x" | '.repeat(10)],
      ['html', 'where_exp: "i", "i != 1" | '.repeat(10)],
    ] as const) {
      // The filters alone would hold their thread for half a minute, and answer 200: liquidjs checks its time limit
      // only between tags; the render's wall-clock limit, which terminates its worker, makes this a 422.
      const preview = await app.http.post('/email/templates/welcome/preview', { [part]: `${array}{{ items | ${filters}size }}` });
      expect(preview.status, filters).toBe(422);
      expect(preview.body).toMatchObject({ code: 'validation_error', field: part });
      expect(preview.body.message).toContain('render limit exceeded');
    }
  }, 300_000);

  it('renders off the event loop: templates that would hold their threads for half a minute are 422, and another renders beside them', async () => {
    const [second, third] = await Promise.all([app.bootstrapAnother(), app.bootstrapAnother()]);
    // While both slow renders hold a worker, the ordinary preview waits for one: replaced, once it is terminated.
    const [text, html, ordinary] = await Promise.all([
      app.http.post('/email/templates/welcome/preview', { text: slow }),
      app.as({ apiKey: second.apiKey }).post('/email/templates/welcome/preview', { html: slow }),
      app.as({ apiKey: third.apiKey }).post('/email/templates/welcome/preview', { subject: 'Hi {{ user.name }}', html: '<p>{{ user.name }}</p>', text: 'Hi {{ user.name }}' }),
    ]);
    expect(text.status).toBe(422);
    expect(text.body).toMatchObject({ code: 'validation_error', field: 'text' });
    expect(html.status).toBe(422);
    expect(html.body).toMatchObject({ code: 'validation_error', field: 'html' });
    expect(ordinary.status).toBe(200);
    expect(ordinary.body).toMatchObject({ subject: 'Hi Ada Lovelace', html: '<p>Ada Lovelace</p>', text: 'Hi Ada Lovelace' });
  }, 300_000);

  /** The process's count of 429s for a render under way (gatehouse_rate_limited_total). */
  const renderingRefusals = async () => {
    const text = await (await fetch(`${app.baseUrl}/metrics`)).text();
    return Number(/^gatehouse_rate_limited_total\{limit="template_rendering"\} (\d+)$/m.exec(text)?.[1] ?? 0);
  };

  it('renders one template at a time per tenant: another of its previews meanwhile is 429, another application’s is not', async () => {
    const tenantId = await app.createTenant('Busy tenant');
    const reader = await issueTestKey(app, { tenantId, permissions: ['email:read'] });
    const other = app.as({ apiKey: (await app.bootstrapAnother()).apiKey });
    const before = await renderingRefusals();
    const answers = await Promise.all(Array.from({ length: 4 }, () => reader.post('/email/templates/welcome/preview', { html: slow })));
    // Whichever came first renders, to its time limit; the others are refused at once.
    expect(answers.filter((answer) => answer.status === 422).map((answer) => answer.body)).toMatchObject([{ code: 'validation_error', field: 'html', message: expect.stringContaining('render limit exceeded') }]);
    const refusals = answers.filter((answer) => answer.status === 429);
    expect(refusals).toHaveLength(3);
    for (const refusal of refusals) expect(refusal.body).toEqual({ code: 'rate_limited', message: expect.stringContaining('Another template of this tenant is rendering') });
    // Counted as every limit's 429 is.
    expect((await renderingRefusals()) - before).toBe(3);
    expect((await other.post('/email/templates/welcome/preview', {})).status).toBe(200);
    // Its place is free once it has answered, refused or not.
    expect((await reader.post('/email/templates/welcome/preview', {})).status).toBe(200);
  }, 300_000);

  it('renders a mail before any preview waiting: another application’s test mail waits for the renders under way, not for every preview queued', async () => {
    const noisy = await Promise.all(Array.from({ length: 4 }, () => app.bootstrapAnother()));
    const victim = app.as({ apiKey: (await app.bootstrapAnother()).apiKey });
    let answered = 0;
    const previews = noisy.map(async ({ apiKey }) => {
      const preview = await app.as({ apiKey }).post('/email/templates/welcome/preview', { html: slow });
      answered += 1;
      return preview;
    });
    // Lets the previews reach the pool first, two rendering and two waiting (a mail sent before them proves nothing).
    await new Promise((resolve) => setTimeout(resolve, 500));
    const mail = await victim.post('/email/test', { to: 'ops@other.example' });
    const answeredBeforeMail = answered;
    expect(mail.status).toBe(201);
    expect((await Promise.all(previews)).map((preview) => preview.status)).toEqual([422, 422, 422, 422]);
    // In arrival order it would have waited for all four.
    expect(answeredBeforeMail).toBeLessThanOrEqual(2);
  }, 300_000);
});
