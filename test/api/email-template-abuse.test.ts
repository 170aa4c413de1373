import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

/** What an end user may put in their name, which an HTML e-mail must show as text. */
const HOSTILE = '<img src=x onerror=alert(1)>';

describe('e-mail templates: what a template can do with hostile variables and loops', () => {
  it('escapes {% echo %} and {% cycle %} in HTML parts as it does {{ }} (only | raw opts out)', async () => {
    for (const html of ['<p>{% echo user.name %}</p>', '<p>{% liquid\necho user.name\n%}</p>', '<p>{% cycle user.name, "b" %}</p>', '<p>{% liquid\ncycle user.name\n%}</p>']) {
      const preview = await app.http.post('/email/templates/welcome/preview', { html, variables: { user: { name: HOSTILE } } });
      expect(preview.status, html).toBe(200);
      expect(preview.body.html, html).toBe('<p>&lt;img src=x onerror=alert(1)&gt;</p>');
    }
    // The explicit opt-out still works for echo, as for {{ }}.
    const raw = await app.http.post('/email/templates/welcome/preview', { html: '<p>{% echo user.name | raw %}</p>', variables: { user: { name: '<b>x</b>' } } });
    expect(raw.body.html).toBe('<p><b>x</b></p>');
    // A stored template renders the same way: a PUT with echo is kept, and its preview escapes.
    const put = await app.http.put('/email/templates/invitation', { subject: 'Join', html: '<p>{% echo inviter.name %} invites you</p>', text: 'Join' });
    expect(put.status).toBe(200);
    const stored = await app.http.post('/email/templates/invitation/preview', { variables: { inviter: { name: HOSTILE } } });
    expect(stored.body.html).toBe('<p>&lt;img src=x onerror=alert(1)&gt; invites you</p>');
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

  // 409 600 one-letter items, well inside the allocation limit; each reject walks them all.
  const array = `{% assign s = "${'a'.repeat(100)}" %}{% for i in (1..12) %}{% assign s = s | append: s %}{% endfor %}{% assign items = s | split: "" %}`;

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
    const hostile = `${array}{{ items | ${'reject: "x" | '.repeat(10)}size }}`;
    // While both hostile renders hold a worker, the ordinary preview waits for one: replaced, once it is terminated.
    const [text, html, ordinary] = await Promise.all([
      app.http.post('/email/templates/welcome/preview', { text: hostile }),
      app.http.post('/email/templates/welcome/preview', { html: hostile }),
      app.http.post('/email/templates/welcome/preview', { subject: 'Hi {{ user.name }}', html: '<p>{{ user.name }}</p>', text: 'Hi {{ user.name }}' }),
    ]);
    expect(text.status).toBe(422);
    expect(text.body).toMatchObject({ code: 'validation_error', field: 'text' });
    expect(html.status).toBe(422);
    expect(html.body).toMatchObject({ code: 'validation_error', field: 'html' });
    expect(ordinary.status).toBe(200);
    expect(ordinary.body).toMatchObject({ subject: 'Hi Ada Lovelace', html: '<p>Ada Lovelace</p>', text: 'Hi Ada Lovelace' });
  }, 300_000);
});
