import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { CookieJar, readForm, type Visit } from '../support/cookie-jar.ts';
import { REDIRECT_URI, startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';
import { HttpClient } from '../support/http.ts';
import { createTestClient } from '../support/oauth.ts';

/**
 * The hosted pages and the default mails in the user's language: `ui_locales` of the authorization request (kept
 * through its interaction), else `Accept-Language`, else English; a branding's copy per language; a user's mails in
 * the language they last used on the pages.
 */
const PASSWORD = 'Correct-Horse-9';

let hosted: HostedTestApp;
let app: TestApp;
let issuer: string;
let config: oidc.Configuration;

beforeAll(async () => {
  hosted = await startHostedTestApp();
  ({ app, issuer, config } = hosted);
});
afterAll(async () => hosted?.close());

/** The sign-in page of a fresh authorization request at `configuration`, the browser sending `headers`. */
async function signInPage(parameters: Record<string, string> = {}, headers: Record<string, string> = {}, configuration = config) {
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    ...parameters,
  });
  const jar = new CookieJar();
  const start = await jar.visit(url.href, { headers });
  expect(start.location).toMatch(/\/interaction\//);
  const page = await jar.visit(start.location!, { headers });
  expect(page.status, page.body).toBe(200);
  return { jar, page };
}

const languageOf = (page: Visit) => /<html lang="([^"]+)" dir="([^"]+)">/.exec(page.body)?.slice(1);
const heading = (page: Visit) => /<h1>([^<]*)<\/h1>/.exec(page.body)?.[1];

async function follow(jar: CookieJar, page: Visit, text: string, headers: Record<string, string> = {}): Promise<Visit> {
  const href = new RegExp(`<a href="([^"]+)">${text}</a>`).exec(page.body)?.[1];
  expect(href, page.body).toBeDefined();
  return jar.visit(new URL(href!.replaceAll('&amp;', '&'), page.url).href, { headers });
}

interface Mail {
  subject: string;
  text: string;
  html: string;
}

async function onlyMail(to: string, templateKey: string, http = app.http): Promise<Mail> {
  const list = await http.get(`/email/deliveries?to=${encodeURIComponent(to)}&templateKey=${templateKey}`);
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  expect(list.body.data).toHaveLength(1);
  return (await http.get(`/email/deliveries/${list.body.data[0].id as string}`)).body as Mail;
}

const localeOf = async (email: string) =>
  (await app.gatehouse.services.orm.em.getConnection().execute<{ locale: string | null }[]>('select locale from app_user where email = ?', [email]))[0]?.locale;

describe('the language of the hosted pages', () => {
  it('is ui_locales first, kept by every page of the sign-in, whatever the browser asks', async () => {
    const { jar, page } = await signInPage({ ui_locales: 'de-CH en' }, { 'accept-language': 'fr' });
    expect(languageOf(page)).toEqual(['de', 'ltr']);
    expect(heading(page)).toBe('Anmelden');
    expect(page.body).toContain('<label for="email">E-Mail-Adresse</label>');
    expect(page.body).toContain('<title>Anmelden – My application</title>');
    // The next pages of the interaction (no parameter of their own) keep it.
    const signup = await follow(jar, page, 'Konto erstellen');
    expect(languageOf(signup)).toEqual(['de', 'ltr']);
    expect(heading(signup)).toBe('Konto erstellen');
    // The password policy's rules too.
    expect(signup.body).toMatch(/<p id="password-rules" class="hint">Verwenden Sie mindestens \d+ Zeichen[^<]*\.<\/p>/);
    const refused = await jar.submit(page, { email: 'nobody@example.com', password: 'wrong-password' });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('role="alert">Die E-Mail-Adresse oder das Passwort ist falsch.</p>');
    expect(refused.body).toContain('<title>Fehler: Anmelden – My application</title>');
  });

  it('is Accept-Language by its q-values without ui_locales; an unsupported ui_locales falls through to it', async () => {
    const french = await signInPage({}, { 'accept-language': 'it;q=1, de;q=0.4, fr-CA;q=0.8, es;q=0' });
    expect(languageOf(french.page)).toEqual(['fr', 'ltr']);
    expect(heading(french.page)).toBe('Se connecter');
    const spanish = await signInPage({ ui_locales: 'it pt-BR' }, { 'accept-language': 'es-MX,es;q=0.9' });
    expect(heading(spanish.page)).toBe('Iniciar sesión');
    for (const [parameters, headers] of [
      [{ ui_locales: 'xx' }, {}],
      [{}, { 'accept-language': 'de;q=0, *' }],
      [{}, { 'accept-language': ';;;,q=2' }],
    ] as const) {
      const plain = await signInPage(parameters, headers);
      expect(languageOf(plain.page), JSON.stringify([parameters, headers])).toEqual(['en', 'ltr']);
      expect(heading(plain.page)).toBe('Sign in');
    }
  });

  it('reaches the pages without an interaction: the error page, the mail links, and discovery says which there are', async () => {
    const lost = await new CookieJar().visit(`${issuer}/interaction/unknown-interaction`, { headers: { 'accept-language': 'es' } });
    expect(languageOf(lost)).toEqual(['es', 'ltr']);
    expect(heading(lost)).toBe('No es posible iniciar sesión');
    const link = await new CookieJar().visit(`${issuer}/account/reset-password?token=nothing`, { headers: { 'accept-language': 'fr' } });
    expect(link.status).toBe(400);
    expect(languageOf(link)).toEqual(['fr', 'ltr']);
    expect(config.serverMetadata()['ui_locales_supported']).toEqual(['en', 'de', 'fr', 'es']);
  });

  it('the refusals of a form before its interaction is read (413, 415) and an internal error (500) keep the interaction’s ui_locales; another browser’s, its own language', async () => {
    const { jar, page } = await signInPage({ ui_locales: 'de' }, { 'accept-language': 'fr' });
    const { action } = readForm(page.url, page.body);
    const french = { 'accept-language': 'fr' };
    const mediaType = await jar.visit(action, { method: 'POST', headers: { ...french, 'content-type': 'application/json' } });
    expect(mediaType.status).toBe(415);
    expect(languageOf(mediaType)).toEqual(['de', 'ltr']);
    expect(mediaType.body).toContain('Das Formular wurde in einem Format gesendet, das diese Seite nicht lesen kann.');
    const tooLarge = await jar.visit(action, { form: { email: 'a'.repeat(1024 * 1024 + 1), password: 'x' }, headers: french });
    expect(tooLarge.status).toBe(413);
    expect(languageOf(tooLarge)).toEqual(['de', 'ltr']);
    expect(tooLarge.body).toContain('Das Formular hat mehr Daten gesendet, als für eine Anmeldung zulässig ist.');
    await app.sql('alter table app_user rename to app_user_away');
    let failed: Visit;
    try {
      failed = await jar.submit(page, { email: 'nobody@example.com', password: 'wrong-password' }, french);
    } finally {
      await app.sql('alter table app_user_away rename to app_user');
    }
    expect(failed.status).toBe(500);
    expect(languageOf(failed)).toEqual(['de', 'ltr']);
    expect(failed.body).toContain('Bei uns ist ein Fehler aufgetreten.');
    // Without the interaction's cookies its uid in the path names nothing: the browser's language.
    const stranger = await new CookieJar().visit(action, { method: 'POST', headers: { ...french, 'content-type': 'application/json' } });
    expect(stranger.status).toBe(415);
    expect(languageOf(stranger)).toEqual(['fr', 'ltr']);
  });

  it('on a tenant path surface, in the tenant’s look', async () => {
    const another = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: another.apiKey });
    await app.createTenant('North', another);
    expect((await admin.patch(`/applications/${another.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const client = await createTestClient(app, { type: 'web', applicationId: another.applicationId, redirectUris: [REDIRECT_URI] });
    const north = await oidc.discovery(new URL(`${issuer}/t/north`), client.clientId, {}, oidc.ClientSecretBasic(client.clientSecret ?? ''), {
      execute: [oidc.allowInsecureRequests],
    });
    const { page } = await signInPage({}, { 'accept-language': 'de' }, north);
    expect(languageOf(page)).toEqual(['de', 'ltr']);
    expect(page.body).toContain('<p class="subtitle">um mit North fortzufahren</p>');
  });
});

describe('copy per language', () => {
  it('a language’s key wins in that language; the plain key stands for every other', async () => {
    const put = await app.http.put('/branding', { copy: { 'login.title': 'Welcome', 'de:login.title': 'Willkommen bei Acme', 'fr:login.submit': 'Entrer' } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    try {
      const german = (await signInPage({ ui_locales: 'de' })).page;
      expect(heading(german)).toBe('Willkommen bei Acme');
      expect(german.body).toContain('<button type="submit">Anmelden</button>');
      const french = (await signInPage({ ui_locales: 'fr' })).page;
      expect(heading(french)).toBe('Welcome');
      expect(french.body).toContain('<button type="submit">Entrer</button>');
      const english = (await signInPage()).page;
      expect(heading(english)).toBe('Welcome');
      expect(english.body).toContain('<button type="submit">Sign in</button>');
    } finally {
      expect((await app.http.put('/branding', {})).status).toBe(200);
    }
  });

  it('refuses a key of no language of the pages or of no text, and stores nothing', async () => {
    const before = (await app.http.get('/branding')).body;
    for (const key of ['pt:login.title', 'DE:login.title', 'de:login.nothing', ':login.title']) {
      const refused = await app.http.put('/branding', { copy: { [key]: 'x' } });
      expect(refused.status, key).toBe(422);
      expect(refused.body, key).toMatchObject({ code: 'validation_error', field: 'copy' });
    }
    expect((await app.http.get('/branding')).body).toEqual(before);
  });
});

describe('refusals in the page’s language', () => {
  const fieldError = (page: Visit, field: string) => new RegExp(`<p id="${field}-error" class="field-error">([^<]*)</p>`).exec(page.body)?.[1];
  const paragraphs = (page: Visit) => [...page.body.matchAll(/<p(?: role="alert")?>([^<]*(?:<code>[^<]*<\/code>)?)<\/p>/g)].map((match) => match[1]);

  it('the sign-up form says what is wrong with each field, and creates nobody', async () => {
    const { jar, page } = await signInPage({ ui_locales: 'de' });
    const signup = await follow(jar, page, 'Konto erstellen');
    const refused = await jar.submit(signup, { name: 'Ada\u0007', email: 'not-an-address', password: 'short' });
    expect(refused.status).toBe(400);
    expect(fieldError(refused, 'name')).toBe('Der Name darf keine Steuerzeichen enthalten.');
    expect(fieldError(refused, 'email')).toBe('Geben Sie eine E-Mail-Adresse wie name@example.com ein.');
    expect(fieldError(refused, 'password')).toMatch(/^Das Passwort muss mindestens \d+ Zeichen lang sein\.$/);

    const french = await signInPage({}, { 'accept-language': 'fr' });
    const form = await follow(french.jar, french.page, 'Créer un compte', { 'accept-language': 'fr' });
    const breached = await french.jar.submit(form, { name: '\u202Eevil', email: 'celine@example.com', password: 'iloveyou2' }, { 'accept-language': 'fr' });
    expect(breached.status).toBe(400);
    expect(fieldError(breached, 'name')).toBe('Le nom ne doit pas contenir de caractères de contrôle du sens d’écriture.');
    expect(fieldError(breached, 'password')).toBe(
      'Le mot de passe figure parmi les mots de passe divulgués lors de fuites de données, ou il est trop courant pour être sûr : choisissez-en un autre.',
    );
    expect((await app.http.get('/users?email=celine@example.com')).body.data).toEqual([]);
  });

  it('the error pages say why in the request’s language; the OP’s own description stays beside its code', async () => {
    const lost = await new CookieJar().visit(`${issuer}/interaction/unknown-interaction`, { headers: { 'accept-language': 'es' } });
    expect(lost.status).toBe(400);
    expect(paragraphs(lost)[0]).toBe('Esta solicitud de inicio de sesión ha caducado o no es válida.');
    const link = await new CookieJar().visit(`${issuer}/account/reset-password?token=nothing`, { headers: { 'accept-language': 'fr' } });
    expect(paragraphs(link)[0]).toBe('Ce lien a expiré, a déjà été utilisé ou n’est pas valable ici. Demandez-en un nouveau depuis la page de connexion.');

    // An unregistered redirect URI: the OP's page, never a redirect.
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: 'https://elsewhere.example/cb', scope: 'openid', ui_locales: 'de' });
    const refused = await new CookieJar().visit(url.href);
    expect(refused.status).toBe(400);
    expect(languageOf(refused)).toEqual(['de', 'ltr']);
    const [said, description, code] = paragraphs(refused);
    expect(said).toBe('Die Anfrage konnte nicht verarbeitet werden.');
    expect(description).toContain('redirect_uri');
    expect(code).toBe('Fehlercode: <code>invalid_redirect_uri</code>');
  });

  it('a refusal’s text is the branding’s copy where it has one, per language', async () => {
    const put = await app.http.put('/branding', { copy: { 'es:field.email': 'Su correo para {name}, por favor.' } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    try {
      const refusedIn = async (language: string, link: string) => {
        const { jar, page } = await signInPage({ ui_locales: language });
        const refused = await jar.submit(await follow(jar, page, link), { email: 'nowhere', password: PASSWORD });
        expect(refused.status).toBe(400);
        return fieldError(refused, 'email');
      };
      expect(await refusedIn('es', 'Crear una cuenta')).toBe('Su correo para My application, por favor.');
      expect(await refusedIn('en', 'Create an account')).toBe('Enter an email address like name@example.com.');
    } finally {
      expect((await app.http.put('/branding', {})).status).toBe(200);
    }
  });

  it('an invitation link that does not open says so in the browser’s language', async () => {
    const page = await new CookieJar().visit(`${issuer}/invitation?token=not-a-token`, { headers: { 'accept-language': 'de' } });
    expect(page.status).toBe(404);
    expect(languageOf(page)).toEqual(['de', 'ltr']);
    expect(page.body).toContain(
      'Dieser Einladungslink ist ungültig. Möglicherweise wurde er durch eine neuere Einladung ersetzt: Verwenden Sie den Link in der neuesten E-Mail.',
    );
  });
});

describe('mails in the user’s language', () => {
  it('a sign-up on a German page is German from its first mail on', async () => {
    const { jar, page } = await signInPage({ ui_locales: 'de' });
    const signup = await follow(jar, page, 'Konto erstellen');
    const done = await jar.submit(signup, { name: 'Jörg', email: 'joerg@example.com', password: PASSWORD });
    expect(done.status, done.body).toBe(200);
    expect(heading(done)).toBe('Prüfen Sie Ihre E-Mails');
    expect(await localeOf('joerg@example.com')).toBe('de');
    const mail = await onlyMail('joerg@example.com', 'verify_email');
    expect(mail.subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse für My application');
    expect(mail.text).toMatch(/^Hallo Jörg,\n/);
    // Its link lives 1,440 minutes: said in whole hours, in German.
    expect(mail.text).toContain('Der Link läuft in 24 Stunden ab.');
    expect(mail.html).toContain('<html lang="de" dir="ltr">');
    expect(mail.html).toContain('E-Mail-Adresse bestätigen</a>');
  });

  it('a sign-in keeps the page’s language for the user’s next mails; a user who never chose one gets English', async () => {
    for (const email of ['ines@example.com', 'emma@example.com']) {
      expect((await app.http.post('/users', { email, password: PASSWORD })).status).toBe(201);
    }
    expect(await localeOf('ines@example.com')).toBeNull();
    const spanish = { 'accept-language': 'es-ES,es;q=0.9,en;q=0.5' };
    const { jar, page } = await signInPage({}, spanish);
    const signedIn = await jar.submit(page, { email: 'ines@example.com', password: PASSWORD }, spanish);
    expect(signedIn.status, signedIn.body).toBe(303);
    expect(await localeOf('ines@example.com')).toBe('es');
    // Asked for on an English page, the reset link still goes out in the user's language.
    for (const email of ['ines@example.com', 'emma@example.com']) {
      const { jar: asking, page: login } = await signInPage();
      const forgot = await follow(asking, login, 'Forgot your password\\?');
      expect((await asking.submit(forgot, { email })).status).toBe(200);
    }
    expect((await onlyMail('ines@example.com', 'password_reset')).subject).toBe('Restablezca su contraseña de My application');
    expect((await onlyMail('emma@example.com', 'password_reset')).subject).toBe('Reset your My application password');
  });

  it('a user whose language is not known yet gets a reset or a new verification link in the language of the page that asked', async () => {
    const email = 'greta@example.com';
    expect((await app.http.post('/users', { email, password: PASSWORD })).status).toBe(201);
    await app.gatehouse.services.orm.em.getConnection().execute('update app_user set email_verified = false where email = ?', [email]);
    const { jar, page } = await signInPage({ ui_locales: 'de' });
    const forgot = await follow(jar, page, 'Passwort vergessen\\?');
    expect(languageOf(forgot)).toEqual(['de', 'ltr']);
    expect((await jar.submit(forgot, { email })).status).toBe(200);
    const resend = await jar.visit(`${page.url}/verify`);
    expect(heading(resend)).toBe('E-Mail-Adresse bestätigen');
    expect((await jar.submit(resend, { email })).status).toBe(200);

    const reset = await onlyMail(email, 'password_reset');
    expect(reset.subject).toBe('Ihr Passwort für My application zurücksetzen');
    expect(reset.html).toContain('<html lang="de" dir="ltr">');
    expect((await onlyMail(email, 'verify_email')).subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse für My application');
    // Asking for a link is no sign-in: the user's language stays unknown, for the next page to decide.
    expect(await localeOf(email)).toBeNull();
  });

  it('the mails a link’s page sends a user whose language is not known yet are in that page’s language', async () => {
    const email = 'hanna@example.com';
    expect((await app.http.post('/users', { email, password: PASSWORD })).status).toBe(201);
    await app.gatehouse.services.orm.em.getConnection().execute('update app_user set email_verified = false where email = ?', [email]);
    const { jar, page } = await signInPage({ ui_locales: 'de' });
    expect((await jar.submit(await follow(jar, page, 'Passwort vergessen\\?'), { email })).status).toBe(200);
    expect((await jar.submit(await jar.visit(`${page.url}/verify`), { email })).status).toBe(200);
    const german = { 'accept-language': 'de-CH, en;q=0.5' };
    const linkIn = async (templateKey: string) => /https?:\/\/\S+/.exec((await onlyMail(email, templateKey)).text)![0];

    const verify = await jar.visit(await linkIn('verify_email'), { headers: german });
    expect(languageOf(verify)).toEqual(['de', 'ltr']);
    expect((await jar.submit(verify, {}, german)).status).toBe(200);
    expect((await onlyMail(email, 'welcome')).subject).toBe('Willkommen bei My application');

    const reset = await jar.visit(await linkIn('password_reset'), { headers: german });
    expect(languageOf(reset)).toEqual(['de', 'ltr']);
    expect((await jar.submit(reset, { password: 'Another-Horse-7' }, german)).status).toBe(200);
    const changed = await onlyMail(email, 'password_changed');
    expect(changed.subject).toBe('Ihr Passwort für My application wurde geändert');
    expect(changed.html).toContain('<html lang="de" dir="ltr">');
    // Opening a link is no sign-in either.
    expect(await localeOf(email)).toBeNull();
  });

  it('a stored template is sent as it is, whatever the language', async () => {
    const put = await app.http.put('/email/templates/password_reset', { subject: 'Custom reset for {{ user.email }}', html: '<p>{{ link }}</p>', text: '{{ link }}' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    try {
      const { jar, page } = await signInPage({ ui_locales: 'fr' });
      const forgot = await follow(jar, page, 'Mot de passe oublié \\?');
      expect((await jar.submit(forgot, { email: 'joerg@example.com' })).status).toBe(200);
      expect((await onlyMail('joerg@example.com', 'password_reset')).subject).toBe('Custom reset for joerg@example.com');
    } finally {
      await app.http.delete('/email/templates/password_reset');
    }
  });
});
