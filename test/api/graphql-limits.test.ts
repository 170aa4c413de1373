import { getIntrospectionQuery, Kind, parse, print, validate, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_LIMITS, OperationLimitsRule } from '../../src/graphql/operation-limits.ts';
import { newId } from '../../src/ids.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import { expandRoutes, ROUTES } from '../../src/rest/routes.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { tenantPageWithConfiguration } from '../support/configuration-page.ts';
import type { HttpResponse } from '../support/http.ts';
import { issueTestKey } from '../support/keys.ts';

/**
 * How much one GraphQL request may ask for (src/graphql/operation-limits.ts): root fields, one write per mutation, and
 * the estimated values it resolves. Over a limit, the request is refused before anything runs, in the contract's body.
 */
type GraphQLResponse = HttpResponse<{ data?: unknown; errors?: { message: string; extensions: Record<string, unknown> }[] }>;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

/** The refusal's status and error: no data, 422 `validation_error` on `field` `query` (the document exceeds a limit). */
function refused(response: GraphQLResponse) {
  expect(response.body.data ?? null).toBeNull();
  expect(response.body.errors).toHaveLength(1);
  const [error] = response.body.errors!;
  expect(response.status).toBe(422);
  expect(error!.extensions).toEqual({ code: 'validation_error', status: 422, field: 'query' });
  return error!.message;
}

const aliases = (count: number, field: (i: number) => string) => Array.from({ length: count }, (_, i) => field(i)).join(' ');

describe('root fields', () => {
  it(`a query runs up to ${OPERATION_LIMITS.queryRootFields} root fields, aliases and fragments counted; one more is refused`, async () => {
    const max = OPERATION_LIMITS.queryRootFields;
    const allowed = await app.http.graphql(`{ __typename ${aliases(max, (i) => `u${i}: users { data { id } }`)} }`);
    expect(allowed.status).toBe(200);
    expect(Object.keys(allowed.body.data as object)).toHaveLength(max + 1);

    const over = await app.http.graphql(`{ ${aliases(max + 1, (i) => `u${i}: users { data { id } }`)} }`);
    expect(refused(over)).toBe(`A query may select at most ${max} root fields (this one selects ${max + 1}): send several requests`);
    // The same through a fragment and an inline fragment.
    const spread = await app.http.graphql(
      `{ ...Half ... on Query { ${aliases(max / 2 + 1, (i) => `b${i}: users { data { id } }`)} } }
       fragment Half on Query { ${aliases(max / 2, (i) => `a${i}: users { data { id } }`)} }`,
    );
    expect(refused(spread)).toContain(`(this one selects ${max + 1})`);
  });

  it('a mutation writes once: two root fields are refused and neither runs', async () => {
    const emails = async () => ((await app.http.get('/users?pageSize=100')).body.data as { email: string }[]).map((user) => user.email);
    const two = await app.http.graphql('mutation { a: createUser(input: { email: "a@limits.example" }) { id } b: createUser(input: { email: "b@limits.example" }) { id } }');
    expect(refused(two)).toBe('A mutation may select at most 1 root field (this one selects 2): send several requests');
    expect(await emails()).not.toContain('a@limits.example');

    const one = await app.http.graphql('mutation { __typename createUser(input: { email: "one@limits.example" }) { id } }');
    expect(one.status).toBe(200);
    expect(await emails()).toContain('one@limits.example');
  });

  it('a keyed mutation over the limits is refused before the permissions of the tenants it names are read', async () => {
    const deletions = aliases(200, (i) => `a${i}: deleteUser(tenantId: "${newId()}", userId: "${newId()}")`);
    const before = app.queries.length;
    const keyed = await app.http.graphql(`mutation { ${deletions} }`, {}, { headers: { 'idempotency-key': randomUUID() } });
    expect(refused(keyed)).toBe('A mutation may select at most 1 root field (this one selects 200): send several requests');
    // Its credentials' own and the rate limit's, as an unkeyed one: not one read per tenant named.
    expect(app.queries.length - before).toBeLessThan(10);
  });
});

describe('estimated cost', () => {
  it('GraphiQL’s full introspection query passes', async () => {
    const query = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true });
    const introspection = await app.http.graphql(query);
    expect(introspection.status).toBe(200);
    expect((introspection.body.data as { __schema: { types: unknown[] } }).__schema.types.length).toBeGreaterThan(50);
  });

  it('aliases multiplied by lists are refused (300 copies of a list inside introspection’s lists: 150,000 values)', async () => {
    const response = await app.http.graphql(`{ __schema { types { fields { ${aliases(300, (i) => `a${i}: args { name }`)} } } } }`);
    expect(refused(response)).toMatch(/^The operation asks for too much: about \d+ values, counting 10 items per list, where 100000 are allowed/);
    // Fewer copies pass: the limit is on the estimate, not on aliases as such.
    expect((await app.http.graphql(`{ __schema { types { fields { ${aliases(20, (i) => `a${i}: args { name }`)} } } } }`)).status).toBe(200);
  });

  it('a fragment bomb (each fragment spreading the next twice) is refused, and measured without expanding it', async () => {
    // 20 fragments (as deep as the depth limit allows), 2^20 fields once expanded: estimated in time linear in the document.
    const depth = 20;
    const fragments = Array.from({ length: depth }, (_, i) =>
      i === depth - 1 ? `fragment F${i} on __Type { name }` : `fragment F${i} on __Type { a: ofType { ...F${i + 1} } b: ofType { ...F${i + 1} } }`,
    ).join('\n');
    const response = await app.http.graphql(`{ __type(name: "Tenant") { ...F0 } }\n${fragments}`);
    expect(refused(response)).toMatch(/^The operation asks for too much/);
  });

  it('a page of 100 tenants with every configuration, as the configuration route selects it, passes', async () => {
    const page = await app.http.graphql(tenantPageWithConfiguration()!, { appId: app.root.applicationId, pageSize: 100 });
    expect(page.status, JSON.stringify(page.body.errors)).toBe(200);
  });
});

describe('what one GraphQL request may cost', () => {
  it('aliases of a page of 100 tenants with their configurations are refused: the estimate counts a page as its pageSize', async () => {
    const appPath = `/applications/${app.root.applicationId}`;
    for (let i = 0; i < 100; i += 1) expect((await app.http.post(`${appPath}/tenants`, { name: `Tenant ${i}` })).status).toBe(201);
    const document = parse(tenantPageWithConfiguration()!);
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    const page = operation.selectionSet.selections[0] as FieldNode;
    const aliased = (count: number) =>
      print({
        ...document,
        definitions: document.definitions.map((d) =>
          d !== operation
            ? d
            : { ...operation, selectionSet: { ...operation.selectionSet, selections: Array.from({ length: count }, (_, i) => ({ ...page, alias: { kind: Kind.NAME, value: `p${i}` } })) } },
        ),
      });
    const variables = { appId: app.root.applicationId, pageSize: 100 };
    // One page, as the dashboard asks for it: about 2 MB and 0.7 s.
    const one = await app.http.graphql(aliased(1), variables);
    expect(one.status, JSON.stringify(one.body.errors)).toBe(200);
    // Five pages were 10 MB and 2 s for one request (twenty: 40 MB and 10 s), where a REST page costs 60 ms.
    const five = await app.http.graphql(aliased(5), variables);
    expect(five.status).toBe(422);
    expect(five.body.data ?? null).toBeNull();
    expect(five.body.errors?.[0]?.message).toMatch(/^The operation asks for too much/);
    // A literal page size counts as itself; a page left without one as the default 20.
    expect((await app.http.graphql(`{ ${Array.from({ length: 20 }, (_, i) => `u${i}: users(pageSize: 100) { data { id email } }`).join(' ')} }`)).status).toBe(200);
  }, 60_000);
});

describe('analytics: a series costs its periods, a count over every user a fifth of the limit', () => {
  const OVER_COST = /^The operation asks for too much: about \d+ values/;
  const signIns = (args: string) => (i: number) => `s${i}: signIns(${args}) { data { period succeeded failed byMethod } }`;
  // 3,660 days: the widest range a series may span.
  const TEN_YEARS = 'from: "2016-01-01", to: "2026-01-07"';
  // signIns, its data, and four fields a day.
  const fit = Math.floor(OPERATION_LIMITS.cost / (2 + 3660 * 4));

  it('aliases of a series over ten years by day: as many as the limit holds are served whole, one more is refused', async () => {
    // The narrowest credential that may ask: analytics:read alone, in one tenant.
    const tenantId = await app.createTenant('Analytics');
    const client = await issueTestKey(app, { tenantId, permissions: ['analytics:read'] });
    const served = await client.graphql(`{ ${aliases(fit, signIns(`${TEN_YEARS}, interval: day`))} }`);
    expect(served.status, JSON.stringify(served.body.errors)).toBe(200);
    expect(Object.values(served.body.data as Record<string, { data: unknown[] }>).map((series) => series.data.length)).toEqual(Array(fit).fill(3660));
    expect(refused(await client.graphql(`{ ${aliases(fit + 1, signIns(`${TEN_YEARS}, interval: day`))} }`))).toMatch(OVER_COST);
    // Counted as 10 items a list, twenty were about 420 values where they resolved 366,000 (4.6 MB).
    expect(refused(await client.graphql(`{ ${aliases(OPERATION_LIMITS.queryRootFields, signIns(`${TEN_YEARS}, interval: day`))} }`))).toMatch(OVER_COST);
  });

  it('a variable, or `to` left out (today), counts as the widest range by day; the default 30 days, weeks and months as theirs', async () => {
    const variables = await app.http.graphql(`query($from: String, $to: String) { ${aliases(fit + 1, signIns('from: $from, to: $to'))} }`, { from: '2026-01-01', to: '2026-01-01' });
    expect(refused(variables)).toMatch(OVER_COST);
    expect(refused(await app.http.graphql(`query($i: AnalyticsInterval) { ${aliases(fit + 1, signIns(`${TEN_YEARS}, interval: $i`))} }`, { i: 'month' }))).toMatch(OVER_COST);
    expect(refused(await app.http.graphql(`{ ${aliases(fit + 1, signIns('from: "2025-12-01"'))} }`))).toMatch(OVER_COST);
    const max = OPERATION_LIMITS.queryRootFields;
    for (const args of ['interval: day', `${TEN_YEARS}, interval: week`, `${TEN_YEARS}, interval: month`, 'to: "2026-01-07"']) {
      const response = await app.http.graphql(`{ ${aliases(max, signIns(args))} }`);
      expect(response.status, `${args}: ${JSON.stringify(response.body.errors)}`).toBe(200);
    }
  });

  it('mfaAdoption and applicationStats count every user each time: four are served, five refused before any runs', async () => {
    const client = await issueTestKey(app, { permissions: ['analytics:read'] });
    const adoption = (i: number) => `m${i}: mfaAdoption { users usersWithMfa ratio byFactor }`;
    expect((await client.graphql(`{ ${aliases(4, adoption)} }`)).status).toBe(200);
    const before = app.queries.length;
    expect(refused(await client.graphql(`{ ${aliases(5, adoption)} }`))).toMatch(OVER_COST);
    // Twenty ran 40 statements, each counting over every user of the application.
    expect(refused(await client.graphql(`{ ${aliases(OPERATION_LIMITS.queryRootFields, adoption)} }`))).toMatch(OVER_COST);
    expect(app.queries.slice(before).filter((sql) => /from app_user|join app_user/.test(sql))).toEqual([]);
    const stats = (i: number) => `a${i}: applicationStats(appId: "${app.root.applicationId}") { users tenants }`;
    expect((await app.http.graphql(`{ ${aliases(2, adoption)} ${aliases(2, stats)} }`)).status).toBe(200);
    expect(refused(await app.http.graphql(`{ ${aliases(2, adoption)} ${aliases(3, stats)} }`))).toMatch(OVER_COST);
  });

  it('every operation of the REST routes, its variables at their widest, is within the limit: /graphql serves what REST does', () => {
    const schema = buildSchema();
    const over = expandRoutes(ROUTES).flatMap((route) =>
      validate(schema, route.operation.document, [OperationLimitsRule]).map((error) => `${route.method} ${route.url}: ${error.message}`),
    );
    expect(over).toEqual([]);
  });
});

describe('depth and size', () => {
  const nested = (levels: number) => `{ __type(name: "Tenant") { ${'ofType { '.repeat(levels)}name${' }'.repeat(levels)} } }`;

  it(`fields nest at most ${OPERATION_LIMITS.depth} deep; deeper is refused before it runs, however deep (no stack exhausted)`, async () => {
    // __type, the ofTypes, then name.
    expect((await app.http.graphql(nested(OPERATION_LIMITS.depth - 2))).status).toBe(200);
    expect(refused(await app.http.graphql(nested(OPERATION_LIMITS.depth - 1)))).toBe(`The operation nests fields ${OPERATION_LIMITS.depth + 1} deep, where ${OPERATION_LIMITS.depth} are allowed`);
    expect(refused(await app.http.graphql(nested(OPERATION_LIMITS.nesting - 4)))).toMatch(/^The operation nests fields \d+ deep/);
    // Deeper than the document may nest its selection sets: refused before it is parsed.
    expect(refused(await app.http.graphql(nested(2000)))).toBe(`The document nests selection sets deeper than ${OPERATION_LIMITS.nesting} levels`);
  });

  describe(`a document nests at most ${OPERATION_LIMITS.nesting} levels (as a JSON body), refused before graphql-js parses it`, () => {
    const max = OPERATION_LIMITS.nesting;
    const list = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
    const object = (levels: number) => `${'{a: '.repeat(levels)}1${'}'.repeat(levels)}`;
    const valueTooDeep = `The document holds a value nested deeper than ${max} levels`;
    const preview = (variables: string) => `mutation { previewEmailTemplate(templateKey: welcome, input: {variables: ${variables}}) { subject } }`;

    it('a literal as deep as a JSON body may nest is read; one level deeper is refused, however deep (no stack exhausted)', async () => {
      // Its own 32 levels inside the argument: graphql-js then refuses a list where an Int goes (a literal, not the nesting).
      const read = await app.http.graphql(`query { users(pageSize: ${list(max)}) { next } }`);
      expect(read.body.errors?.[0]).toMatchObject({ message: 'Invalid pageSize: expected an integer', extensions: { field: 'pageSize' } });
      expect(refused(await app.http.graphql(`query { users(pageSize: ${list(max + 1)}) { next } }`))).toBe(valueTooDeep);
      expect(refused(await app.http.graphql(`query { users(pageSize: ${list(3000)}) { next } }`))).toBe(valueTooDeep);
      // The input object is the value's first level, `variables` and the objects inside it the next ones.
      expect((await app.http.graphql(preview(object(max - 1)))).status).toBe(200);
      expect(refused(await app.http.graphql(preview(object(max))))).toBe(valueTooDeep);
      expect(refused(await app.http.graphql(preview(object(2450))))).toBe(valueTooDeep);
    });

    it('list types and inline fragments are nesting too; brackets inside strings and comments are not', async () => {
      expect(refused(await app.http.graphql(`query($p: ${list(max + 1).replace('1', 'Int')}) { users(pageSize: $p) { next } }`))).toBe(valueTooDeep);
      const fragments = (levels: number) => `{ ${'... on Query { '.repeat(levels)}version${' }'.repeat(levels)} }`;
      expect((await app.http.graphql(fragments(max - 1))).status).toBe(200);
      expect(refused(await app.http.graphql(fragments(3000)))).toBe(`The document nests selection sets deeper than ${max} levels`);
      const brackets = '['.repeat(max + 1);
      const quoted = await app.http.graphql(`# ${brackets}\n mutation { previewEmailTemplate(templateKey: welcome, input: {variables: {a: "${brackets}", b: """${brackets}"""}}) { subject } }`);
      expect(quoted.status).toBe(200);
    });

    it('a document that does not lex is the parser\'s to refuse, in its own words', async () => {
      expect(refused(await app.http.graphql(`query { users(pageSize: "unterminated\n${list(max + 1)}) { next } }`))).toMatch(/^Syntax Error: Unterminated string/);
      expect(refused(await app.http.graphql('{ version } }'))).toMatch(/^Syntax Error/);
    });
  });

  it(`a document holds at most ${OPERATION_LIMITS.tokens} tokens: __typename aliases, which cost little each, cannot add up`, async () => {
    // Three tokens an alias (a0 : __typename).
    expect((await app.http.graphql(`{ ${aliases(1000, (i) => `a${i}: __typename`)} }`)).status).toBe(200);
    const response = await app.http.graphql(`{ ${aliases(OPERATION_LIMITS.tokens / 3 + 1, (i) => `a${i}: __typename`)} }`);
    expect(refused(response)).toMatch(/^Syntax Error: Document contains more tha[nt] 10000 tokens/);
  });

  it('a field repeated too often to validate is refused saying so, not graphql-js\'s bare "Validation aborted."', async () => {
    // graphql-js compares fields of one response name pairwise, within a budget it aborts at.
    expect((await app.http.graphql(`{ ${'version '.repeat(100)} }`)).body).toEqual({ data: { version: expect.any(String) } });
    for (const query of [`{ ${'version '.repeat(9_000)} }`, `{ ${'... on Query { __typename } '.repeat(1_600)} }`]) {
      expect(refused(await app.http.graphql(query))).toBe(
        'The document repeats fields too often to be validated (the same field or fragment selected thousands of times): send a smaller one',
      );
    }
  });
});
