import { batch, prepareSignIns, type BatchFigures, type SignInService } from './sign-ins.ts';

const REDIRECT_URI = 'https://bench.example/callback';

/**
 * Hosted magic-link sign-ins: the application's `magic_link` provider enabled (beside the password), each sign-in
 * prepared up to its "check your email" page and its link read from the outbox (`GET /email/deliveries`); what is timed
 * is the link opened in the asking browser and the redirects that follow, until the browser is sent to the client with
 * a code (the link's row used, the sign-in recorded, the OP issuing the code). Run after the password rows: the
 * provider adds a form to their page.
 */
export async function magicLinkSignIns(service: SignInService, count: number, concurrency: number): Promise<BatchFigures> {
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${service.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': service.apiKey, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, any>;
  };
  for (const type of ['password', 'magic_link']) await api('POST', '/auth-providers', { type });
  const { prepared, emails } = await prepareSignIns(service, count, count, 'magic-links');
  const links: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const { jar, page } = prepared(i);
    const action = /formaction="([^"]+\/email-link)"|action="([^"]+\/email-link)"/.exec(page.body);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1];
    if (action === null || csrf === undefined) throw new Error(`no magic-link form: ${page.body.slice(0, 500)}`);
    const sent = await jar.visit(new URL(action[1] ?? action[2]!, page.url).href, { form: { csrf, email: emails[i]! } });
    if (sent.status !== 200) throw new Error(`asking for a link: ${sent.status}`);
    links.push(await linkFromOutbox(api, emails[i]!));
  }
  return batch(
    'hosted sign-in: magic link opened → code',
    count,
    concurrency,
    async (i) => {
      const { jar } = prepared(i);
      const out = await jar.followOut(await jar.visit(links[i]!), service.baseUrl);
      return out.href.startsWith(REDIRECT_URI) && out.searchParams.get('code') !== null;
    },
    service.cpuMs,
    service.loopDelayMs,
  );
}

/** The link of the one `magic_link` mail to `to`, once the outbox worker has rendered it. */
async function linkFromOutbox(api: (method: string, path: string) => Promise<Record<string, any>>, to: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const [delivery] = (await api('GET', `/email/deliveries?to=${encodeURIComponent(to)}&templateKey=magic_link`))['data'] as { id: string }[];
    const text = delivery === undefined ? undefined : ((await api('GET', `/email/deliveries/${delivery.id}`))['text'] as string | null);
    const link = text == null ? undefined : /(http\S+\/email-link\?token=\S+)/.exec(text)?.[1];
    if (link !== undefined) return link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no magic link mailed to ${to}`);
}
