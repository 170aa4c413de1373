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

  it('holds the render time limit inside filters: a chain of array filters is 422, not a long block of the process', async () => {
    // 409 600 one-letter items, well inside the allocation limit; each reject walks them all.
    const array = `{% assign s = "${'a'.repeat(100)}" %}{% for i in (1..12) %}{% assign s = s | append: s %}{% endfor %}{% assign items = s | split: "" %}`;
    for (const [part, filters] of [
      ['text', 'reject: "x" | '.repeat(10)],
      ['html', 'where_exp: "i", "i != 1" | '.repeat(10)],
    ] as const) {
      // The limit is one second; the filters alone would hold the process (not only this request) for half a minute,
      // and answer 200: only the limit, checked inside them, makes this a 422.
      const preview = await app.http.post('/email/templates/welcome/preview', { [part]: `${array}{{ items | ${filters}size }}` });
      expect(preview.status, filters).toBe(422);
      expect(preview.body).toMatchObject({ code: 'validation_error', field: part });
      expect(preview.body.message).toContain('render limit exceeded');
    }
  }, 300_000);
});
