import type { FetchLike } from './host-fetch.ts';

/**
 * A browser's cookie handling, small enough to read: cookies from Set-Cookie kept per name, domain and path (host-only;
 * the tests talk to one host), sent back on requests whose path they match (RFC 6265 5.1.4), dropped when they
 * expire. Secure and SameSite are not modelled: every request here is same-site, over http to 127.0.0.1.
 */
interface StoredCookie {
  name: string;
  value: string;
  host: string;
  path: string;
  expires: number | undefined;
  httpOnly: boolean;
  sameSite: string | undefined;
}

/** What a browser would do with a response of `fetch(..., { redirect: 'manual' })`. */
export interface Visit {
  readonly url: string;
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
  /** The Location header resolved against the request URL, for 3xx answers. */
  readonly location: string | undefined;
}

function defaultPath(url: URL): string {
  const path = url.pathname;
  if (!path.startsWith('/') || path.lastIndexOf('/') === 0) return '/';
  return path.slice(0, path.lastIndexOf('/'));
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

export class CookieJar {
  private cookies: StoredCookie[] = [];
  private readonly fetch: FetchLike;

  /** `fetchImpl`: how requests travel (e.g. test/support/host-fetch.ts for a custom domain's Host). */
  constructor(fetchImpl: FetchLike = (input, init) => fetch(input, init as RequestInit)) {
    this.fetch = fetchImpl;
  }

  /** Every cookie kept, for assertions (name → attributes). */
  all(): readonly Readonly<StoredCookie>[] {
    this.expire();
    return [...this.cookies];
  }

  store(url: string, setCookies: readonly string[]): void {
    const requestUrl = new URL(url);
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      if (separator <= 0) continue;
      const cookie: StoredCookie = {
        name: pair.slice(0, separator).trim(),
        value: pair.slice(separator + 1).trim(),
        host: requestUrl.hostname,
        path: defaultPath(requestUrl),
        expires: undefined,
        httpOnly: false,
        sameSite: undefined,
      };
      for (const attribute of attributes) {
        const [rawKey = '', ...rest] = attribute.split('=');
        const key = rawKey.trim().toLowerCase();
        const value = rest.join('=').trim();
        if (key === 'path' && value.startsWith('/')) cookie.path = value;
        else if (key === 'max-age') cookie.expires = Date.now() + Number(value) * 1000;
        else if (key === 'expires' && cookie.expires === undefined) cookie.expires = Date.parse(value);
        else if (key === 'httponly') cookie.httpOnly = true;
        else if (key === 'samesite') cookie.sameSite = value.toLowerCase();
      }
      this.cookies = this.cookies.filter((kept) => !(kept.name === cookie.name && kept.host === cookie.host && kept.path === cookie.path));
      if (cookie.expires === undefined || cookie.expires > Date.now()) this.cookies.push(cookie);
    }
  }

  /** The Cookie header a browser sends to `url`: longer paths first. */
  header(url: string): string | undefined {
    this.expire();
    const { hostname, pathname } = new URL(url);
    const matching = this.cookies
      .filter((cookie) => cookie.host === hostname && pathMatches(pathname, cookie.path))
      .sort((a, b) => b.path.length - a.path.length);
    return matching.length === 0 ? undefined : matching.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  }

  /** One request as a browser sends it (cookies attached, redirects not followed), remembering what it sets. */
  async visit(url: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Visit> {
    const headers: Record<string, string> = { accept: 'text/html', ...init.headers };
    const cookie = this.header(url);
    if (cookie !== undefined) headers['cookie'] = cookie;
    let body: string | undefined;
    if (init.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await this.fetch(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body, redirect: 'manual' });
    this.store(url, response.headers.getSetCookie());
    const location = response.headers.get('location');
    return {
      url,
      status: response.status,
      headers: response.headers,
      body: await response.text(),
      location: location === null ? undefined : new URL(location, url).href,
    };
  }

  /**
   * Posts the page's form as a browser would: its own fields (hidden ones included) plus what the user typed; `headers`
   * as a proxy in front would add them (X-Forwarded-For).
   */
  async submit(page: Visit, values: Record<string, string>, headers: Record<string, string> = {}): Promise<Visit> {
    const form = readForm(page.url, page.body);
    return this.visit(form.action, { form: { ...form.fields, ...values }, headers });
  }

  /**
   * Follows 302/303 answers until one points outside `origin` (the client's redirect URI), and returns that URL;
   * throws on any other answer, with the page, so a refusal shows what it said.
   */
  async followOut(visit: Visit, origin: string): Promise<URL> {
    for (let hops = 0; hops < 10; hops += 1) {
      if (visit.status !== 302 && visit.status !== 303) throw new Error(`${visit.url}: ${visit.status}\n${visit.body.slice(0, 1000)}`);
      const location = visit.location!;
      if (!location.startsWith(`${origin}/`)) return new URL(location);
      visit = await this.visit(location);
    }
    throw new Error('too many redirects');
  }

  private expire(): void {
    const now = Date.now();
    this.cookies = this.cookies.filter((cookie) => cookie.expires === undefined || cookie.expires > now);
  }
}

const unescapeHtml = (value: string) =>
  value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replaceAll('&quot;', '"').replaceAll('&amp;', '&');

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match === null ? undefined : unescapeHtml(match[1]!);
}

/** A page's first POST form as a browser sees it: its action (absolute) and its fields with their values. */
export interface PageForm {
  readonly action: string;
  /** Inputs by name (hidden ones with their values, others as rendered); a select's options under `options`. */
  readonly fields: Record<string, string>;
  readonly options: Record<string, string[]>;
}

export function readForm(pageUrl: string, html: string): PageForm {
  const form = /<form\b[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (form === null) throw new Error(`no POST form on ${pageUrl}:\n${html.slice(0, 2000)}`);
  const action = attribute(form[0].slice(0, form[0].indexOf('>') + 1), 'action') ?? pageUrl;
  const fields: Record<string, string> = {};
  for (const [tag] of form[1]!.matchAll(/<input\b[^>]*>/gi)) {
    const name = attribute(tag, 'name');
    if (name !== undefined) fields[name] = attribute(tag, 'value') ?? '';
  }
  const options: Record<string, string[]> = {};
  for (const [, tag, inner] of form[1]!.matchAll(/(<select\b[^>]*>)([\s\S]*?)<\/select>/gi)) {
    const name = attribute(tag!, 'name');
    if (name !== undefined) options[name] = [...inner!.matchAll(/<option\b[^>]*>/gi)].map(([option]) => attribute(option, 'value') ?? '');
  }
  return { action: new URL(action, pageUrl).href, fields, options };
}
