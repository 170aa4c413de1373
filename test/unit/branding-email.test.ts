import { describe, expect, it } from 'vitest';
import { DEFAULT_BRANDING, parseBranding } from '../../src/domain/branding/branding.ts';
import { parseEmailProvider } from '../../src/domain/email/provider.ts';
import { LOCALES } from '../../src/domain/locales.ts';
import { renderDrafts, renderTemplate, TEMPLATE_PARTS, type TemplatePart } from '../../src/domain/email/render.ts';
import { DEFAULT_TEMPLATES, defaultTemplate, TEMPLATE_KEYS, templateVariables } from '../../src/domain/email/template-defaults.ts';
import { checkTemplateParts } from '../../src/domain/email/templates.ts';
import { GatehouseError } from '../../src/errors.ts';

const PUBLIC_URL = 'https://auth.example.com';

function fieldOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    if (error instanceof GatehouseError && error.code === 'validation_error') return error.field;
    throw error;
  }
  return undefined;
}

async function fieldOfAsync(action: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await action();
  } catch (error) {
    if (error instanceof GatehouseError && error.code === 'validation_error') return error.field;
    throw error;
  }
  return undefined;
}

/** One part as a mail renders it, beside plain others. */
async function renderPart(part: TemplatePart, source: string, variables: object): Promise<string> {
  return (await renderTemplate({ subject: 'Hi', html: '<p>Hi</p>', text: 'Hi', [part]: source }, variables))[part];
}

describe('parseBranding', () => {
  it('fills what the body leaves out with the defaults and lower-cases colors', () => {
    expect(parseBranding({})).toEqual(DEFAULT_BRANDING);
    expect(parseBranding({ colors: { primary: '#ABCDEF' }, logoUrl: 'https://cdn.test/a b.png' })).toEqual({
      ...DEFAULT_BRANDING,
      logoUrl: 'https://cdn.test/a%20b.png',
      colors: { ...DEFAULT_BRANDING.colors, primary: '#abcdef' },
    });
  });

  it('names the offending field', () => {
    expect(fieldOf(() => parseBranding({ logoUrl: 'ftp://cdn.test/a.png' }))).toBe('logoUrl');
    expect(fieldOf(() => parseBranding({ faviconUrl: `https://cdn.test/${'a'.repeat(2048)}` }))).toBe('faviconUrl');
    expect(fieldOf(() => parseBranding({ colors: { text: '#12345g' } }))).toBe('colors.text');
    expect(fieldOf(() => parseBranding({ copy: { 'login.title': 'x', 'de:login.submit': null } }))).toBe('copy.de:login.submit');
    expect(fieldOf(() => parseBranding({ copy: { '9lives': 'x' } }))).toBe('copy');
    expect(fieldOf(() => parseBranding({ copy: { 'signIn.title': 'Hello' } }))).toBe('copy');
    expect(fieldOf(() => parseBranding({ copy: { 'login.title': 'Hello', 'es:login.title': 'Hola' } }))).toBeUndefined();
  });
});

describe('parseEmailProvider', () => {
  const smtp = { type: 'smtp' as const, fromAddress: 'a@acme.test', smtp: { host: 'mail.acme.test', port: 465, username: 'u', security: 'tls' as const } };

  it('keeps a stored secret of the same type, drops those the type does not use', () => {
    const stored = { type: 'smtp', smtp: smtp.smtp, secrets: { password: 'p' } };
    expect(parseEmailProvider(smtp, stored, PUBLIC_URL).secrets).toEqual({ apiKey: null, secretAccessKey: null });
    // Another server gets it only given again.
    expect(fieldOf(() => parseEmailProvider({ ...smtp, smtp: { ...smtp.smtp, host: 'mail.elsewhere.test' } }, stored, PUBLIC_URL))).toBe('secrets.password');
    const switched = parseEmailProvider({ type: 'resend', fromAddress: 'a@acme.test', secrets: { apiKey: 're_1' } }, stored, PUBLIC_URL);
    expect(switched.secrets).toEqual({ password: null, apiKey: 're_1', secretAccessKey: null });
    expect(switched.value).toEqual({ type: 'resend', fromAddress: 'a@acme.test', fromName: null, replyTo: null, smtp: null, ses: null });
  });

  it('requires the type’s secret unless already stored in the same type', () => {
    expect(fieldOf(() => parseEmailProvider(smtp, null, PUBLIC_URL))).toBe('secrets.password');
    expect(fieldOf(() => parseEmailProvider(smtp, { type: 'sendgrid', secrets: { password: 'p' } }, PUBLIC_URL))).toBe('secrets.password');
    // An SMTP relay without a username needs no password.
    expect(parseEmailProvider({ ...smtp, smtp: { host: 'relay.internal', port: 25 } }, null, PUBLIC_URL).value.smtp).toEqual({
      host: 'relay.internal', port: 25, username: null, security: 'starttls',
    });
  });

  it('refuses a password for an SMTP server without a username, which never logs in, and drops one stored', () => {
    const relay = { ...smtp, smtp: { host: 'relay.acme.test', port: 25 } };
    expect(fieldOf(() => parseEmailProvider({ ...relay, secrets: { password: 'p' } }, null, PUBLIC_URL))).toBe('secrets.password');
    const stored = { type: 'smtp', smtp: { host: 'relay.acme.test', port: 25, username: null, security: 'starttls' as const }, secrets: { password: 'p' } };
    expect(parseEmailProvider(relay, stored, PUBLIC_URL).secrets).toEqual({ password: null, apiKey: null, secretAccessKey: null });
  });

  it('gives the built-in sender its fixed address', () => {
    expect(parseEmailProvider({ type: 'gatehouse' }, null, PUBLIC_URL).value.fromAddress).toBe('no-reply@auth.example.com');
    expect(fieldOf(() => parseEmailProvider({ type: 'gatehouse', fromAddress: 'x@evil.test' }, null, PUBLIC_URL))).toBe('fromAddress');
  });
});

describe('templates', () => {
  it('every default template renders its HTML and text parts without leftovers', async () => {
    const variables = { application: { name: 'App' }, user: { name: 'Ada', email: 'ada@example.com' }, link: 'https://x.test/?a=1&b=2', branding: { colors: DEFAULT_BRANDING.colors } };
    for (const key of TEMPLATE_KEYS) {
      const template = DEFAULT_TEMPLATES[key];
      expect(() => checkTemplateParts(template)).not.toThrow();
      const html = await renderPart('html', template.html, variables);
      expect(html, key).toContain('App');
      expect(html, key).not.toMatch(/{{|{%/);
      const text = await renderPart('text', template.text, variables);
      expect(text, key).toMatch(/^Hi Ada,/);
    }
  });

  it('every built-in template of every language names only the variables its template offers', async () => {
    for (const locale of LOCALES) {
      for (const key of TEMPLATE_KEYS) {
        const draft = { parts: defaultTemplate(key, locale), written: TEMPLATE_PARTS, offered: templateVariables(key) };
        expect(await fieldOfAsync(() => renderDrafts({ applicationId: 'built-in', tenantId: null }, [draft], {})), `${locale} ${key}`).toBeUndefined();
      }
    }
    // The check sees them: the same draft naming another template's variable is refused.
    const draft = { parts: { ...defaultTemplate('welcome'), text: '{{ code }}' }, written: TEMPLATE_PARTS, offered: templateVariables('welcome') };
    expect(await fieldOfAsync(() => renderDrafts({ applicationId: 'built-in', tenantId: null }, [draft], {}))).toBe('text');
  });

  it('renders one draft per scope, and two of an application’s tenants, at a time: the application’s own place stays', async () => {
    const draft = { parts: defaultTemplate('welcome'), written: TEMPLATE_PARTS, offered: templateVariables('welcome') };
    const of = (applicationId: string, tenantId: string | null) => renderDrafts({ applicationId, tenantId }, [draft], {});
    const refusal = (promise: Promise<unknown>) => promise.then(() => 'rendered', (error: Error) => error.message);
    // Each call takes its place before it awaits anything: their order is their arrival.
    const first = refusal(of('app-a', 'tenant-1'));
    const sameTenant = refusal(of('app-a', 'tenant-1'));
    const otherTenant = refusal(of('app-a', 'tenant-2'));
    const thirdTenant = refusal(of('app-a', 'tenant-3'));
    const application = refusal(of('app-a', null));
    const sameApplication = refusal(of('app-a', null));
    const otherApplication = refusal(of('app-b', 'tenant-1'));
    expect(await first).toBe('rendered');
    expect(await sameTenant).toContain('Another template of this tenant is rendering');
    expect(await otherTenant).toBe('rendered');
    expect(await thirdTenant).toContain("Two templates of this application's tenants are rendering");
    expect(await application).toBe('rendered');
    expect(await sameApplication).toContain('Another template of this application is rendering');
    expect(await otherApplication).toBe('rendered');
    // Their places are free once they have answered.
    expect(await Promise.all([refusal(of('app-a', 'tenant-3')), refusal(of('app-a', 'tenant-1')), refusal(of('app-a', null))])).toEqual(['rendered', 'rendered', 'rendered']);
  });

  it('renders a stored template as it is: unknown variables and hidden prototypes print nothing', async () => {
    expect(await renderPart('text', '[{{ lnik }}{{ user.emial }}{{ user.constructor }}{{ user.__proto__ }}]', { user: { name: 'Ada' } })).toBe('[]');
  });

  it('escapes a capture read through filters exactly once: a filter reads its text, and what it makes is text', async () => {
    const pair = { v: 'Tom & Jerry' };
    const filtered = [
      '{{ x | upcase }}', '{{ x | strip }}', '{{ x | append: "!" }}', '{{ "(" | append: x }}', '{% assign y = x | strip %}{{ y }}',
      '{{ x | split: " " | join: "+" }}', '{{ x | default: "none" }}', '{% echo x | downcase %}', '{{ x | truncate: 9 }}',
    ];
    const rendered = await renderPart('html', `{% capture x %}{{ v }}{% endcapture %}${filtered.join('|')}`, pair);
    expect(rendered).toBe('TOM &amp; JERRY|Tom &amp; Jerry|Tom &amp; Jerry!|(Tom &amp; Jerry|Tom &amp; Jerry|Tom+&amp;+Jerry|Tom &amp; Jerry|tom &amp; jerry|Tom &amp; ...');
    // The template's own markup in a capture is HTML printed whole, text once a filter has read it.
    expect(await renderPart('html', '{% capture x %}<b>{{ v }}</b>{% endcapture %}{{ x }}|{{ x | strip }}', pair)).toBe('<b>Tom &amp; Jerry</b>|&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;');
  });

  it('never prints a captured variable unescaped, `| raw` after a capture and after any filter of it included', async () => {
    const hostile = { v: '<img src=x onerror=alert(1)>', u: '%3Cimg%20src%3Dx%3E' };
    // What reads the capture's HTML back into markup: entities replaced, or the outputs' own encodings decoded.
    const unescaped = 'replace: "&lt;", "<" | replace: "&gt;", ">"';
    const templates = [
      '{{ x | raw }}', '{% echo x | raw %}', `{{ x | ${unescaped} | raw }}`, '{{ x | strip | raw }}', '{{ x | url_decode | raw }}',
      `{% assign y = x | ${unescaped} %}{{ y | raw }}`, `{% echo x | ${unescaped} | raw %}`, `{{ "" | append: x | ${unescaped} | raw }}`,
      `{% assign words = x | split: " " %}{% for w in words %}{{ w | ${unescaped} | raw }}{% endfor %}`, `{{ x | split: " " | first | ${unescaped} | raw }}`,
      `{% assign y = x | ${unescaped} %}{% capture z %}{{ y }}{% endcapture %}{{ z | raw }}`, '{{ x | base64_encode | base64_decode | raw }}',
      `{{ x | ${unescaped} | default: "" | raw }}`, `{{ "" | default: x | url_decode | raw }}`,
    ];
    for (const template of templates) {
      const html = await renderPart('html', `{% capture x %}{{ v }} {{ u }}{% endcapture %}${template}`, hostile);
      expect(html, template).not.toMatch(/<img/);
      expect(html, template).toContain('&lt;img');
    }
  });

  it('escapes HTML output, folds subjects, and refuses what cannot render', async () => {
    expect(await renderPart('html', '{{ v }}', { v: '<b>"&' })).toBe('&lt;b&gt;&#34;&amp;');
    expect(await renderPart('text', '{{ v }}', { v: '<b>' })).toBe('<b>');
    // A capture is the template's own HTML, its outputs escaped once: printed again, by {{ }} or echo, not twice.
    const name = { v: 'Seán O\'Brien & <Co>' };
    const once = 'Seán O&#39;Brien &amp; &lt;Co&gt;';
    expect(await renderPart('html', '{% capture hi %}<b>Hi {{ v }}</b>{% endcapture %}{{ hi }}|{% echo hi %}|{{ hi | raw }}', name)).toBe(`<b>Hi ${once}</b>|<b>Hi ${once}</b>|<b>Hi ${once}</b>`);
    // Conditions and `size` read its text, as the text part's capture reads.
    expect(await renderPart('html', '{% capture hi %}{{ v }}{% endcapture %}{% if hi %}{{ hi | size }} {{ hi.size }}{% endif %}{% if hi == "x" %}!{% endif %}{% if hi contains "& <" %}&{% endif %}', name)).toBe(`${name.v.length} ${name.v.length}&`);
    expect(await renderPart('text', '{% capture hi %}Hi {{ v }}{% endcapture %}{{ hi }}', name)).toBe('Hi Seán O\'Brien & <Co>');
    expect(await renderPart('subject', 'Hi {{ v }}', { v: 'a\r\nBcc: b' })).toBe('Hi a Bcc: b');
    // Every line break of Unicode's, not only CR and LF: a subject is one line wherever it is shown.
    expect(await renderPart('subject', 'Hi {{ v }}', { v: 'a\u2028b\u2029c\u0085d\u000be\ff' })).toBe('Hi a b c d e f');
    expect(await fieldOfAsync(() => renderPart('html', '{% layout "x" %}', {}))).toBe('html');
    // No tag reaches the file system, even for a file that exists in the working directory.
    expect(await fieldOfAsync(() => renderPart('html', '{% include package.json %}', {}))).toBe('html');
    expect(await fieldOfAsync(() => renderPart('text', '{% render "package.json" %}', {}))).toBe('text');
    expect(await fieldOfAsync(() => renderPart('text', '{{ a | evil }}', {}))).toBe('text');
    // liquidjs throws some of its limits unwrapped (an AssertionError): the parse limit, and the render limit met
    // between top-level tags (after `{% assign a = (1..9999999) %}`, a 500 until then).
    expect(await fieldOfAsync(() => renderPart('text', 'x'.repeat(200_001), {}))).toBe('text');
    expect(fieldOf(() => checkTemplateParts({ subject: 'a\nb' }))).toBe('subject');
    expect(fieldOf(() => checkTemplateParts({ subject: 'a\u2028b' }))).toBe('subject');
    expect(fieldOf(() => checkTemplateParts({ text: '' }))).toBe('text');
  });

  it('renders in a worker thread: the event loop turns while a template runs, and one that overruns its time is refused', async () => {
    expect(await renderPart('text', 'Hi {{ n }}', { n: 'Ada' })).toBe('Hi Ada');
    // 409 600 items walked by ten rejects: half a minute of filters, which liquidjs's own time limit does not stop.
    const items = `{% assign s = "${'a'.repeat(100)}" %}{% for i in (1..12) %}{% assign s = s | append: s %}{% endfor %}{% assign items = s | split: "" %}`;
    let settled = false;
    const hostile = renderPart('text', `${items}{{ items | ${'reject: "x" | '.repeat(10)}size }}`, {}).finally(() => {
      settled = true;
    });
    // On this thread, the render would run to its end (as microtasks) before the next turn of the event loop.
    expect(await new Promise<boolean>((resolve) => setImmediate(() => resolve(settled)))).toBe(false);
    const [refusal, ordinary] = await Promise.all([fieldOfAsync(() => hostile), renderPart('html', '<p>{{ n }}</p>', { n: '<Ada>' })]);
    expect(refusal).toBe('text');
    expect(ordinary).toBe('<p>&lt;Ada&gt;</p>');
    // The terminated worker is replaced by the next render.
    expect(await renderPart('subject', 'Hi\n{{ n }}', { n: 'Ada' })).toBe('Hi Ada');
  }, 60_000);
});
