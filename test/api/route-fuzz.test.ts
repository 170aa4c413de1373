import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_PROVIDER_SPECS } from '../../src/domain/auth-providers/config.ts';
import { TEMPLATE_LIMITS } from '../../src/domain/email/templates.ts';
import { GRACE_PERIOD_MAX_SECONDS } from '../../src/domain/oauth-clients/secrets.ts';
import { POLICY_FIELDS, POLICY_KINDS } from '../../src/domain/policies/definitions.ts';
import { STATUS_BY_CODE } from '../../src/errors.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import { expandRoutes, ROUTES, type ExpandedRoute, type RouteDef } from '../../src/rest/routes.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import type { HttpResponse } from '../support/http.ts';
import { seedVictim, type Victim } from '../isolation/fixtures.ts';

/**
 * The brief's rule, "bad input gets a clear error in the contract's error body and changes nothing", tried on every
 * row of the route table with hostile input drawn from the schema and from the domain's own tables (policy ranges,
 * auth provider configurations, template limits): wrong JSON types for each field, fields left out or null, unknown
 * fields, deep nesting, malformed JSON, huge strings, unicode oddities (NUL, lone surrogates, bidirectional controls,
 * 4-byte emoji), numbers out of range, garbage page sizes and cursors, ids that are not UUIDs; over REST and through
 * /graphql as variables. Every answer must be a 4xx in the contract's error body with a request id, and after each
 * row every table must be byte for byte what it was, the audit log included (a record names the request that wrote it).
 *
 * Deterministic: a seeded PRNG, one per row (a row's requests do not depend on which other rows run), draws the
 * sample of values, the path form and the transport of each request, and composes the garbage strings. FUZZ_SEED
 * draws another sample.
 */
const SEED = Number(process.env['FUZZ_SEED'] ?? 0x6a7e);
const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Every garbage value carries it, so that a message repeating the refused value shows. */
const MARKER = 'Fz9q';
const ERROR_BODY_KEYS = new Set(['code', 'message', 'field', 'details']);
const MEBIBYTE = 1024 * 1024;
/** Requests of a row in flight at once: refusals are independent of each other. */
const CONCURRENCY = 4;

// ---------------------------------------------------------------------------------------------------------------------
// Determinism

/** mulberry32: a small seeded PRNG. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of the row's name, from the run's seed. */
function seedOf(text: string): number {
  let hash = (0x811c9dc5 ^ SEED) >>> 0;
  for (const char of text) hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193);
  return hash >>> 0;
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** `count` of `items`, drawn without repetition, in their order. */
function sample<T>(random: Random, items: readonly T[], count: number): T[] {
  const keys = items.map((item, index) => ({ item, index, key: random() }));
  return keys
    .sort((a, b) => a.key - b.key)
    .slice(0, count)
    .sort((a, b) => a.index - b.index)
    .map(({ item }) => item);
}

/** What no stored string may hold (a NUL: PostgreSQL cannot store one), or no JSON body (a lone surrogate). */
type Poison = 'nul' | 'lone surrogate';
const POISONS: Record<Poison, readonly string[]> = { nul: ['\u0000'], 'lone surrogate': ['\uD800', '\uDFFF', '\uDBFF'] };
/** Oddities each harmless somewhere, mixed around the poison. */
const ODDITIES = ['\u202E', '\u2066', '😀', '👩‍👩‍👧', '\u200B', '\uFEFF', '\r\n', '"', "'", '\\', '<script>', '${x}', '%00', 'e\u0301', '\u{10FFFF}', ' ', 'ﷺ', 'İ'];

function garbage(random: Random, poison: Poison): string {
  const pieces = Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick(random, ODDITIES));
  pieces.splice(Math.floor(random() * (pieces.length + 1)), 0, pick(random, POISONS[poison]));
  pieces.splice(Math.floor(random() * (pieces.length + 1)), 0, MARKER);
  return pieces.join('');
}

// ---------------------------------------------------------------------------------------------------------------------
// Probes: one hostile request each, before its path form and transport are drawn

/** JSON text that JSON.stringify cannot write (`1e400`, which JSON.parse reads as Infinity). */
class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

function toJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, member: unknown) => (member instanceof RawJson ? `\u0001${raws.push(member.text) - 1}\u0001` : member));
  return text.replace(/"\\u0001(\d+)\\u0001"/g, (_match, index: string) => raws[Number(index)]!);
}

/** A body that is not JSON, or not sent as JSON. */
interface RawBody {
  readonly raw: string;
  readonly contentType: string;
}
const isRaw = (body: unknown): body is RawBody => typeof body === 'object' && body !== null && 'raw' in body && 'contentType' in body;

interface Expectation {
  /** The answer must be 422 `validation_error` naming this input, or a path inside it. */
  readonly field?: string;
  /** The answer must have exactly this status. */
  readonly status?: number;
  /** A success is allowed (a read: an introspection, a preview); it must still change nothing. */
  readonly mayAccept?: boolean;
  /** The message must not repeat the refused value: graphql-js quotes it, and it may be a secret. */
  readonly quiet?: boolean;
}

type Transport = 'rest' | 'graphql';

interface Probe {
  readonly what: string;
  readonly expect: Expectation;
  /** Path parameters, replacing the fixture's (URL-encoded over REST, as they are over GraphQL). */
  readonly params?: Readonly<Record<string, string>>;
  /** Path segments sent as written (REST only): malformed percent-encoding. */
  readonly segments?: Readonly<Record<string, string>>;
  /** Query string (REST only). */
  readonly query?: string;
  /** The JSON body (the GraphQL `input`), or a raw one (REST only). Left out: the fixture's valid body, if any. */
  readonly body?: unknown;
  /** GraphQL variables beside `input` and the path's (pageSize, cursor). */
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * `either`: one of the two, drawn. Both run the same coercion and the same domain function: each value is tried on
   * one of them, each row on both.
   */
  readonly transport: Transport | 'either';
}

interface Hostile {
  readonly what: string;
  readonly value: unknown;
  /** GraphQL coerces a single value into a list of one (the GraphQL specification); REST wants a JSON array. */
  readonly restOnly?: boolean;
}

const SAMPLE_UUID = '01890a5d-ac96-774b-bcce-b302099a8057';
const NOT_UUIDS: readonly Hostile[] = [
  { what: 'not a UUID', value: `not-a-uuid-${MARKER}` },
  { what: 'an empty UUID', value: '' },
  { what: 'a braced UUID', value: `{${SAMPLE_UUID}}` },
  { what: 'a UUID without hyphens', value: SAMPLE_UUID.replace(/-/g, '') },
  { what: 'a UUID and a newline', value: `${SAMPLE_UUID}\n` },
  { what: 'a UUID with an emoji', value: `${SAMPLE_UUID.slice(0, -2)}😀` },
  { what: 'a UUID after an RTL override', value: `\u202E${SAMPLE_UUID}` },
  { what: 'SQL for a UUID', value: `' OR '1'='1' --${MARKER}` },
  { what: 'a UUID of non-hex digits', value: 'g1890a5d-ac96-774b-bcce-b302099a8057' },
];

/** Values of the wrong JSON type (or no value of the scalar) for a field of this GraphQL type. */
function wrongJsonTypes(type: GraphQLInputType): Hostile[] {
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    return [
      { what: 'a string for a list', value: `x${MARKER}`, restOnly: true },
      { what: 'an object for a list', value: { x: 1 } },
      { what: 'a list of lists', value: [['x']] },
    ];
  }
  const named = getNamedType(type);
  if (isInputObjectType(named)) {
    return [
      { what: 'a string for an object', value: `x${MARKER}` },
      { what: 'a number for an object', value: 7 },
      { what: 'a boolean for an object', value: true },
      { what: 'a list for an object', value: [{}] },
    ];
  }
  if (isEnumType(named)) {
    const first = named.getValues()[0]!.value as string;
    return [
      { what: 'an unknown enum value', value: `nope${MARKER}` },
      { what: 'an empty enum value', value: '' },
      { what: 'an enum value in another case', value: first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase() },
      { what: 'an emoji enum value', value: '😀' },
      { what: 'an enum value and a NUL', value: `${first}\u0000` },
      { what: 'a number for an enum', value: 1 },
      { what: 'a list for an enum', value: [first] },
    ];
  }
  switch (named.name) {
    case 'String':
      return [
        { what: 'a number for a string', value: 7 },
        { what: 'a boolean for a string', value: true },
        { what: 'an object for a string', value: { x: MARKER } },
        { what: 'a list for a string', value: [`x${MARKER}`] },
      ];
    case 'Int':
      return [
        { what: 'a numeric string for an Int', value: '5' },
        { what: 'a fraction for an Int', value: 1.5 },
        { what: '2^31 for an Int', value: 2 ** 31 },
        { what: '-2^31-1 for an Int', value: -(2 ** 31) - 1 },
        { what: '1e400 (Infinity) for an Int', value: new RawJson('1e400') },
        { what: '"NaN" for an Int', value: 'NaN' },
        { what: 'a boolean for an Int', value: true },
        { what: 'a list for an Int', value: [5] },
      ];
    case 'Boolean':
      return [
        { what: '"true" for a Boolean', value: 'true' },
        { what: '1 for a Boolean', value: 1 },
        { what: '0 for a Boolean', value: 0 },
        { what: 'an object for a Boolean', value: {} },
      ];
    case 'UUID':
      return [...NOT_UUIDS, { what: 'a number for a UUID', value: 12345 }, { what: 'a list for a UUID', value: [SAMPLE_UUID] }];
    case 'DateTime':
      return [
        { what: 'a date in words', value: `tomorrow${MARKER}` },
        { what: 'the 30th of February', value: '2031-02-30T00:00:00Z' },
        { what: 'a date without a time zone', value: '2031-01-01T00:00:00' },
        { what: 'a date in the past', value: '2001-01-01T00:00:00Z' },
        { what: 'a date past the end of time', value: '+275760-09-13T00:00:00.001Z' },
        { what: 'an object for a date', value: {} },
      ];
    case 'JSONObject':
      return [
        { what: 'a string for an object', value: `x${MARKER}` },
        { what: 'a number for an object', value: 7 },
        { what: 'a list for an object', value: [{}] },
        { what: 'a boolean for an object', value: false },
      ];
    default:
      throw new Error(`route-fuzz: no hostile values for the scalar ${named.name}`);
  }
}

const DISPLAY_NAMES: readonly unknown[] = [
  '',
  '   ',
  '\u200B\u2060',
  'n'.repeat(201),
  '😀'.repeat(201),
  'evil\u202Egnp.exe',
  'isolate\u2067d',
  'two\nlines',
  'tab\there',
  'nel\u0085',
];
const EMAILS: readonly unknown[] = ['', 'plain', 'a@b', 'a b@example.com', '@example.com', 'a@example.com\u200B', 'a\u202E@example.com', `${'x'.repeat(250)}@example.com`];
const SLUGS: readonly unknown[] = ['', 'Upper', '-lead', 'trail-', 'under_score', 'ünï', '😀', SAMPLE_UUID, 's'.repeat(64), 'a b'];
const HOSTNAMES: readonly unknown[] = [
  '',
  'localhost',
  '127.0.0.1',
  '[::1]',
  'https://a.example.com',
  'a.example.com:443',
  'a.example.com/x',
  'a.example.com.',
  'ünï.example.com',
  '😀.example.com',
  '*.example.com',
  '-a.example.com',
  `${'l'.repeat(64)}.example.com`,
  'example.123',
  'a..example.com',
];
const HTTPS_URLS: readonly unknown[] = [
  'http://example.com/logo.png',
  'javascript:alert(1)',
  '//example.com/logo.png',
  'not a url',
  'https://user:pw@example.com/logo.png',
  'https://exa_mple.com/logo.png',
  `https://example.com/${'p'.repeat(2100)}`,
  'data:image/png;base64,AAAA',
];
const COLORS: readonly unknown[] = ['red', '#fff', '#12345g', '123456', '#1234567', 'rgb(0,0,0)', '#12345😀'];
const REDIRECT_URIS: readonly unknown[] = [
  'http://example.com/cb',
  'https://example.com/cb#frag',
  'https://u:p@example.com/cb',
  'https://*.example.com/cb',
  'javascript:alert(1)',
  '/relative/cb',
  '',
  `https://example.com/${'p'.repeat(2001)}`,
];
const PERMISSIONS: readonly unknown[] = ['', 'users', 'users:fly', 'nope:read', ' users:read', 'users:read\u200B', 'users:read:write'];
const templatePart = (limit: number): readonly unknown[] => ['', '   ', 'x'.repeat(limit + 1), 'bell\u0007'];

/** What the domain must refuse in a string or number field (or list item, `[]`) beyond its JSON type: by input type and field. */
const SEMANTIC: Readonly<Record<string, readonly unknown[]>> = {
  ...Object.fromEntries(
    [
      'CreateApplicationInput.name',
      'UpdateApplicationInput.name',
      'CreateTenantInput.name',
      'UpdateTenantInput.name',
      'CreateUserInput.name',
      'UpdateUserInput.name',
      'CreateApiKeyInput.name',
      'CreateAuthProviderInput.name',
      'UpdateAuthProviderInput.name',
      'CreateOAuthClientInput.name',
      'UpdateOAuthClientInput.name',
      'CreateM2MCredentialInput.name',
      'EmailProviderInput.fromName',
    ].map((key) => [key, DISPLAY_NAMES]),
  ),
  ...Object.fromEntries(['CreateUserInput.email', 'UpdateUserInput.email', 'EmailProviderInput.fromAddress', 'EmailProviderInput.replyTo'].map((key) => [key, EMAILS])),
  'CreateTenantInput.slug': SLUGS,
  'UpdateTenantInput.slug': SLUGS,
  'CreateDomainInput.hostname': HOSTNAMES,
  'BrandingInput.logoUrl': HTTPS_URLS,
  'BrandingInput.faviconUrl': HTTPS_URLS,
  'BrandingColorsInput.primary': COLORS,
  'BrandingColorsInput.background': COLORS,
  'BrandingColorsInput.text': COLORS,
  'CreateOAuthClientInput.redirectUris[]': REDIRECT_URIS,
  'UpdateOAuthClientInput.redirectUris[]': REDIRECT_URIS,
  'CreateOAuthClientInput.postLogoutRedirectUris[]': REDIRECT_URIS,
  'UpdateOAuthClientInput.postLogoutRedirectUris[]': REDIRECT_URIS,
  'CreateApiKeyInput.permissions[]': PERMISSIONS,
  'CreateM2MCredentialInput.permissions[]': PERMISSIONS,
  'EmailTemplateInput.subject': templatePart(TEMPLATE_LIMITS.subject),
  'EmailTemplateInput.html': templatePart(TEMPLATE_LIMITS.html),
  'EmailTemplateInput.text': templatePart(TEMPLATE_LIMITS.text),
  'SmtpSettingsInput.host': ['', 'smtp example.com', 'smtp.example.com:25', '-smtp.example.com'],
  'SmtpSettingsInput.port': [0, -1, 65_536],
  'SmtpSettingsInput.username': ['', 'u'.repeat(257), 'line\nbreak'],
  'SesSettingsInput.region': ['', 'mars', 'EU-WEST-1', 'eu-west-1\n'],
  'SesSettingsInput.accessKeyId': ['', 'short', 'akia0123456789abcdef'],
  'EmailProviderSecretsInput.password': ['', 'x'.repeat(4097), 'line\r\nbreak'],
  'CreateUserInput.password': ['Sh0rt!', 'Line\nBreak-1234'],
  'UpdateUserInput.password': ['Sh0rt!', 'Line\nBreak-1234'],
  'RotateOAuthClientSecretInput.gracePeriodSeconds': [-1, GRACE_PERIOD_MAX_SECONDS + 1],
  'RotateM2MCredentialInput.gracePeriodSeconds': [-1, GRACE_PERIOD_MAX_SECONDS + 1],
  'ValidateSessionInput.token': ['', 'x'.repeat(8193)],
};

/** Strings that are read, not stored (a secret to introspect, a preview's text): any string may be a fair question. */
const READ_ONLY_STRINGS = new Set(['IntrospectApiKeyInput.secret', 'ValidateSessionInput.token', 'EmailTemplatePreviewInput.subject', 'EmailTemplatePreviewInput.html', 'EmailTemplatePreviewInput.text']);
const isSecretField = (key: string) => /secret|password|apiKey/i.test(key.slice(key.indexOf('.') + 1));

// ---------------------------------------------------------------------------------------------------------------------
// The input's fields

type Segment = string | number;

/** A place in an operation's input: a field, or a list's first item. */
interface Slot {
  readonly path: readonly Segment[];
  readonly type: GraphQLInputType;
  /** `Type.field`, and `Type.field[]` for the list's items: the key of SEMANTIC. */
  readonly key: string;
  /** Leaving it out is refused (a non-null type). */
  readonly required: boolean;
  /** Null is refused (a non-null type, or `@notNull`). */
  readonly notNull: boolean;
}

const fieldPath = (path: readonly Segment[]): string =>
  path.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join('');

function slotsOf(type: GraphQLInputType, path: readonly Segment[] = []): Slot[] {
  const named = getNamedType(type);
  if (!isInputObjectType(named)) return [];
  return Object.values(named.getFields()).flatMap((field) => {
    const fieldSlot: Slot = {
      path: [...path, field.name],
      type: field.type,
      key: `${named.name}.${field.name}`,
      required: isNonNullType(field.type),
      notNull: isNonNullType(field.type) || field.astNode?.directives?.some((directive) => directive.name.value === 'notNull') === true,
    };
    const nullable = getNullableType(field.type);
    if (!isListType(nullable)) return [fieldSlot, ...slotsOf(field.type, fieldSlot.path)];
    const item: Slot = { path: [...fieldSlot.path, 0], type: nullable.ofType, key: `${fieldSlot.key}[]`, required: false, notNull: isNonNullType(nullable.ofType) };
    return [fieldSlot, item, ...slotsOf(nullable.ofType, item.path)];
  });
}

/** `body` with `value` at `path`, making the objects and lists on the way. */
function withValue(body: unknown, path: readonly Segment[], value: unknown): unknown {
  const root = structuredClone(body ?? {}) as Record<Segment, unknown>;
  let node = root;
  for (const [index, segment] of path.entries()) {
    if (index === path.length - 1) {
      node[segment] = value;
      break;
    }
    if (typeof node[segment] !== 'object' || node[segment] === null) node[segment] = typeof path[index + 1] === 'number' ? [] : {};
    node = node[segment] as Record<Segment, unknown>;
  }
  return root;
}

function without(body: unknown, path: readonly Segment[]): unknown {
  const root = structuredClone(body ?? {}) as Record<Segment, unknown>;
  let node: Record<Segment, unknown> | undefined = root;
  for (const segment of path.slice(0, -1)) node = node?.[segment] as Record<Segment, unknown> | undefined;
  if (node !== undefined) delete node[path.at(-1)!];
  return root;
}

function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
}

// ---------------------------------------------------------------------------------------------------------------------
// Valid bodies to spoil, one field at a time

const EC_KEY = {
  kty: 'EC',
  crv: 'P-256',
  kid: 'fuzz-key',
  x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
  y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
};
const PASSPHRASE = 'Correct-Horse-9-Battery';

/**
 * Valid bodies beyond the isolation fixtures', so that the spoiled field is the only thing wrong: a nested object's
 * siblings present (smtp's port beside its host), the variant a field belongs to (ses settings with type ses). The
 * first that holds the spoiled field's parent is used, else the first, else the fixture's.
 */
const FULL_BODIES: Readonly<Record<string, readonly unknown[]>> = {
  CreateApplication: [
    { name: 'Fuzz app', multiTenant: true, tenancyConfig: { brandingScope: 'tenant', emailTemplatesScope: 'tenant', emailProviderScope: 'tenant', authIsolation: 'shared' } },
  ],
  UpdateApplication: [{ name: 'Fuzz', tenancyConfig: { brandingScope: 'tenant' } }],
  CreateTenant: [{ name: 'Fuzz tenant', slug: 'fuzz-tenant' }],
  UpdateTenant: [{ name: 'Fuzz', slug: 'fuzz-renamed' }],
  CreateUser: [{ email: 'fuzz@example.com', name: 'Fuzz', password: PASSPHRASE }],
  UpdateUser: [{ email: 'fuzz2@example.com', name: 'Fuzz', password: PASSPHRASE }],
  CreateApiKey: [{ name: 'Fuzz key', permissions: ['users:read'], expiresAt: '2099-01-01T00:00:00Z' }],
  PutBranding: [
    {
      logoUrl: 'https://example.com/logo.png',
      faviconUrl: 'https://example.com/favicon.ico',
      colors: { primary: '#123456', background: '#ffffff', text: '#000000' },
      copy: { 'login.title': 'Hi' },
    },
  ],
  PutEmailProvider: [
    {
      type: 'smtp',
      fromAddress: 'no-reply@example.com',
      fromName: 'Example',
      replyTo: 'help@example.com',
      smtp: { host: 'smtp.example.com', port: 587, username: 'mailer', security: 'starttls' },
      secrets: { password: 'pw' },
    },
    { type: 'ses', fromAddress: 'no-reply@example.com', ses: { region: 'eu-west-1', accessKeyId: 'AKIA0123456789ABCDEF' }, secrets: { secretAccessKey: 'secret' } },
  ],
  PreviewEmailTemplate: [{ subject: 'Hi', html: '<p>Hi</p>', text: 'Hi', variables: { name: 'Fuzz' } }],
  CreateAuthProvider: [{ type: 'magic_link', name: 'Fuzz link', enabled: true, config: { linkLifetimeMinutes: 10 } }],
  UpdateAuthProvider: [{ name: 'Fuzz password', enabled: true, config: { allowSignup: false } }],
  CreateOAuthClient: [
    {
      name: 'Fuzz web',
      type: 'web',
      redirectUris: ['https://example.com/cb'],
      postLogoutRedirectUris: ['https://example.com/bye'],
      tokenEndpointAuthMethod: 'client_secret_post',
      idTokenSigningAlg: 'ES256',
    },
  ],
  UpdateOAuthClient: [
    {
      name: 'Fuzz',
      redirectUris: ['https://example.com/cb'],
      postLogoutRedirectUris: ['https://example.com/bye'],
      tokenEndpointAuthMethod: 'client_secret_basic',
      idTokenSigningAlg: 'RS256',
    },
  ],
  CreateM2MCredential: [{ name: 'Fuzz m2m', permissions: ['users:read'], authMethod: 'private_key_jwt', jwks: { keys: [EC_KEY] } }],
  RotateOAuthClientSecret: [{ gracePeriodSeconds: 60 }],
  RotateM2MCredential: [{ gracePeriodSeconds: 60 }],
  // Each policy field is spoiled under its own kind, where the other kinds' fields are unknown.
  PutPolicy: [{}],
  PutM2MCredentialJwks: [{ keys: [EC_KEY] }],
  CreateApiResource: [{ identifier: 'https://fuzz.example.com/api', name: 'Fuzz API', permissions: [], newPermissions: [{ key: 'fuzz:read', description: 'Read' }] }],
  UpdateApiResource: [{ name: 'Fuzz', newPermissions: [{ key: 'fuzz:write', description: 'Write' }] }],
};

function bodyFor(operation: string, victim: Victim, slot?: Pick<Slot, 'path'>): unknown {
  const candidates = FULL_BODIES[operation] ?? [];
  const parent = (slot?.path.slice(0, -1) ?? []).filter((segment): segment is string => typeof segment === 'string');
  const holds = (body: unknown) => parent.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], body) !== undefined;
  return structuredClone(candidates.find(holds) ?? candidates[0] ?? victim.bodies[operation] ?? {});
}

const POLICY_KIND_OF: Readonly<Record<string, string>> = Object.fromEntries(POLICY_KINDS.flatMap((kind) => Object.keys(POLICY_FIELDS[kind]).map((field) => [field, kind])));

// ---------------------------------------------------------------------------------------------------------------------
// The probes of one row

interface RowContext {
  readonly operation: string;
  readonly forms: readonly ExpandedRoute[];
  readonly inputType: GraphQLInputType | undefined;
  readonly victim: Victim;
  readonly random: Random;
  /** A cursor another list issued. */
  readonly foreignCursor: string;
}

/** The body's fields, one at a time: the wrong JSON type, left out, null, a value the domain refuses, poisoned strings. */
function fieldProbes(context: RowContext): Probe[] {
  if (context.inputType === undefined) return [];
  const { operation, random } = context;
  const slots = slotsOf(context.inputType);
  const strings = slots.filter((slot) => getNullableType(slot.type).toString() === 'String');
  const probes: Probe[] = [];
  for (const slot of slots) {
    const label = fieldPath(slot.path);
    // A list item's refusal may name the list (`permissions`, as the SDL documents) or the item.
    const field = fieldPath(typeof slot.path.at(-1) === 'number' ? slot.path.slice(0, -1) : slot.path);
    const base = bodyFor(operation, context.victim, slot);
    const params = operation === 'PutPolicy' ? { kind: POLICY_KIND_OF[String(slot.path[0])]! } : undefined;
    const readOnly = READ_ONLY_STRINGS.has(slot.key);
    const probe = (what: string, body: unknown, expect: Expectation, transport: Probe['transport'] = 'either'): Probe => ({
      what: `${label}: ${what}`,
      body,
      expect,
      transport,
      ...(params === undefined ? {} : { params }),
    });
    for (const hostile of sample(random, wrongJsonTypes(slot.type), 3)) {
      probes.push(probe(hostile.what, withValue(base, slot.path, hostile.value), { field, quiet: true }, hostile.restOnly === true ? 'rest' : 'either'));
    }
    if (slot.required) probes.push(probe('left out', without(base, slot.path), { field }));
    if (slot.notNull) probes.push(probe('null', withValue(base, slot.path, null), { field }));
    for (const value of SEMANTIC[slot.key] ?? []) {
      probes.push(probe(JSON.stringify(value).slice(0, 40), withValue(base, slot.path, value), { field, quiet: isSecretField(slot.key) }));
    }
    if (strings.includes(slot)) {
      const nul = readOnly ? { mayAccept: true } : { field, quiet: isSecretField(slot.key) };
      probes.push(probe('garbage with a NUL', withValue(base, slot.path, garbage(random, 'nul')), nul));
      probes.push(probe('garbage with a lone surrogate', withValue(base, slot.path, garbage(random, 'lone surrogate')), { field: 'body', quiet: true }));
    }
  }
  if (strings.length > 0) {
    const slot = pick(random, strings);
    const body = withValue(bodyFor(operation, context.victim, slot), slot.path, 'x'.repeat(MEBIBYTE + 1));
    probes.push({ what: `${fieldPath(slot.path)}: over 1 MiB`, body, expect: { status: 413 }, transport: 'rest' });
  }
  return [...probes, ...policyRangeProbes(context), ...authProviderConfigProbes(context), ...wholeBodyProbes(context)];
}

/** Each policy field just outside its range, and under a kind it is not of (POLICY_FIELDS, the table validation reads). */
function policyRangeProbes(context: RowContext): Probe[] {
  if (context.operation !== 'PutPolicy') return [];
  return POLICY_KINDS.flatMap((kind) =>
    Object.entries(POLICY_FIELDS[kind]).flatMap(([field, spec]): Probe[] => {
      const outside = spec.type === 'int' ? [spec.min - 1, spec.max + 1] : [];
      const otherKind = POLICY_KINDS.find((other) => other !== kind)!;
      return [
        ...outside.map((value): Probe => ({ what: `${kind}.${field}: ${value}`, params: { kind }, body: { [field]: value }, expect: { field }, transport: 'either' })),
        { what: `${field} under kind ${otherKind}`, params: { kind: otherKind }, body: { [field]: null }, expect: { field }, transport: 'either' },
      ];
    }),
  );
}

/** Each auth provider type's configuration (AUTH_PROVIDER_SPECS): fields of the wrong type, out of range, unknown. */
function authProviderConfigProbes(context: RowContext): Probe[] {
  if (context.operation !== 'CreateAuthProvider') return [];
  const types = ['password', 'magic_link', 'm2m', 'api_keys'] as const;
  return types.flatMap((type) => {
    const probes: Probe[] = [
      { what: `${type}: an unknown config field`, body: { type, config: { [`zz${MARKER}`]: true } }, expect: { field: 'config' }, transport: 'either' },
      { what: `${type}: secrets it has none of`, body: { type, secrets: { clientSecret: `s${MARKER}` } }, expect: { field: 'secrets', quiet: true }, transport: 'either' },
      { what: `${type}: config nested 40 deep`, body: { type, config: nested(40) }, expect: { field: 'body' }, transport: 'either' },
    ];
    for (const [field, spec] of Object.entries(AUTH_PROVIDER_SPECS[type].config)) {
      const bad: unknown[] = [{}, [1]];
      if (spec.kind === 'boolean') bad.push('true', 1);
      if (spec.kind === 'int') bad.push(spec.min - 1, spec.max + 1, 1.5, '5');
      if (spec.kind === 'enum') bad.push(`nope${MARKER}`, 1);
      if (spec.kind === 'string') bad.push('', 'x'.repeat(spec.max + 1), `a\u0000${MARKER}`, 7);
      for (const value of sample(context.random, bad, 3)) {
        const what = `${type}: config.${field} = ${JSON.stringify(value).slice(0, 30)}`;
        probes.push({ what, body: { type, config: { [field]: value } }, expect: { field: `config.${field}` }, transport: 'either' });
      }
    }
    return probes;
  });
}

/** Refusals of several fields together. */
function wholeBodyProbes(context: RowContext): Probe[] {
  const probe = (what: string, body: unknown, expect: Expectation = {}): Probe => ({ what, body, expect, transport: 'either' });
  switch (context.operation) {
    case 'CreateOAuthClient':
      return [
        probe('a device client with redirect URIs', { name: 'D', type: 'device', redirectUris: ['https://example.com/cb'] }, { field: 'redirectUris' }),
        probe(
          'a public client with a secret method',
          { name: 'S', type: 'spa', redirectUris: ['https://example.com/cb'], tokenEndpointAuthMethod: 'client_secret_post' },
          { field: 'tokenEndpointAuthMethod' },
        ),
        probe('51 redirect URIs', { name: 'W', type: 'web', redirectUris: Array.from({ length: 51 }, (_, index) => `https://example.com/cb${index}`) }, { field: 'redirectUris' }),
        probe('a web client without redirect URIs', { name: 'W', type: 'web', redirectUris: [] }, { field: 'redirectUris' }),
      ];
    case 'CreateM2MCredential':
      return [
        probe('private_key_jwt without a JWKS', { name: 'M', permissions: ['users:read'], authMethod: 'private_key_jwt' }, { field: 'jwks' }),
        probe('a secret method with a JWKS', { name: 'M', permissions: ['users:read'], authMethod: 'client_secret_basic', jwks: { keys: [EC_KEY] } }, { field: 'jwks' }),
        probe('no permissions', { name: 'M', permissions: [] }, { field: 'permissions' }),
      ];
    case 'CreateApiKey':
      return [probe('no permissions', { name: 'K', permissions: [] }, { field: 'permissions' })];
    case 'PutEmailProvider':
      return [
        probe('smtp without its settings', { type: 'smtp', fromAddress: 'a@example.com' }, { field: 'smtp' }),
        probe('smtp settings for another type', { type: 'gatehouse', smtp: { host: 'smtp.example.com', port: 25 } }, { field: 'smtp' }),
        probe('a secret another type uses', { type: 'gatehouse', secrets: { apiKey: `k${MARKER}` } }, { field: 'secrets.apiKey', quiet: true }),
        probe('sendgrid without its key', { type: 'sendgrid', fromAddress: 'a@example.com' }, { field: 'secrets.apiKey' }),
        probe('the built-in sender from another address', { type: 'gatehouse', fromAddress: 'ceo@example.com' }, { field: 'fromAddress' }),
      ];
    case 'PutBranding':
      return [
        probe('copy of 101 entries', { copy: Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`k${index}`, 'x'])) }, { field: 'copy' }),
        probe('a copy key of punctuation', { copy: { '1 bad key!': 'x' } }, { field: 'copy' }),
        probe('an empty copy key', { copy: { '': 'x' } }, { field: 'copy' }),
        probe('a copy value that is a number', { copy: { 'login.title': 5 } }, { field: 'copy.login.title' }),
        probe('a copy value that is an object', { copy: { 'login.title': { nested: 'x' } } }, { field: 'copy.login.title' }),
        probe('a copy value that is null', { copy: { 'login.title': null } }, { field: 'copy.login.title' }),
        probe('a blank copy value', { copy: { 'login.title': '  ' } }, { field: 'copy.login.title' }),
        probe('a copy value over 2000 characters', { copy: { 'login.title': 'x'.repeat(2001) } }, { field: 'copy.login.title' }),
        probe('a copy value with a NUL', { copy: { 'login.title': `a\u0000${MARKER}` } }, { field: 'copy.login.title' }),
        probe('a copy key with a lone surrogate', { copy: { 'ti\uD800tle': 'x' } }, { field: 'body' }),
        probe('copy nested 40 deep', { copy: nested(40) }, { field: 'body' }),
      ];
    case 'PutM2MCredentialJwks':
      return [
        probe('no keys', { keys: [] }, { field: 'keys' }),
        probe('11 keys', { keys: Array.from({ length: 11 }, (_, index) => ({ ...EC_KEY, kid: `k${index}` })) }, { field: 'keys' }),
        probe('a symmetric key', { keys: [{ kty: 'oct', kid: 'k', k: 'c2VjcmV0' }] }, { field: 'keys[0].kty' }),
        probe('a private key', { keys: [{ ...EC_KEY, d: 'jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI' }] }, { field: 'keys[0].d', quiet: true }),
        probe('a point that is not base64url', { keys: [{ ...EC_KEY, x: '!!!', y: '???' }] }, { field: 'keys[0].x' }),
        probe('a point not on the curve', { keys: [{ ...EC_KEY, x: 'AAAA', y: 'AAAA' }] }, { field: 'keys[0]' }),
        probe('two keys of one kid', { keys: [EC_KEY, EC_KEY] }, { field: 'keys[1].kid' }),
        probe('an encryption key', { keys: [{ ...EC_KEY, use: 'enc' }] }, { field: 'keys[0].use' }),
        probe('an HMAC algorithm', { keys: [{ ...EC_KEY, alg: 'HS256' }] }, { field: 'keys[0].alg' }),
        probe('a kid with a NUL', { keys: [{ ...EC_KEY, kid: `k\u0000${MARKER}` }] }, { field: 'keys[0].kid' }),
        probe('a kid of 201 characters', { keys: [{ ...EC_KEY, kid: 'k'.repeat(201) }] }, { field: 'keys[0].kid' }),
        probe('a member nested 40 deep', { keys: [{ ...EC_KEY, x5c: nested(40) }] }, { field: 'body' }),
      ];
    case 'CreateUser':
      return [probe('a tenant that does not exist', { email: 'ghost@example.com', tenantId: SAMPLE_UUID })];
    case 'UpdateUser':
      return [probe('a tenant that does not exist', { tenantIds: [SAMPLE_UUID] })];
    case 'CreateTenant':
      return [probe('the slug of another tenant', { name: 'Copycat', slug: 'victim-a' }, { status: 409 })];
    default:
      return [];
  }
}

const MALFORMED_JSON = [
  '{',
  '{"name":}',
  '[1, 2',
  '{"a":1}{"b":2}',
  "{'name': 'x'}",
  '{"name": "x",}',
  'NaN',
  '{"name": "\\uZZZZ"}',
  '{"a": 01}',
  '\u0000',
  'undefined',
  '{"a": 1e}',
];

/** The body as a whole: not an object, with unknown fields, too deep, not JSON, not sent as JSON; or where none is taken. */
function bodyProbes(context: RowContext): Probe[] {
  const { operation, random } = context;
  if (context.forms[0]!.method === 'GET') return [];
  const rest = (what: string, body: unknown, expect: Expectation): Probe => ({ what, body, expect, transport: 'rest' });
  const valid = bodyFor(operation, context.victim);
  const probes: Probe[] = [
    ...sample(random, MALFORMED_JSON, 2).map((text) =>
      rest(`malformed JSON ${JSON.stringify(text)}`, { raw: text, contentType: 'application/json' }, { field: 'body', quiet: true }),
    ),
    rest('JSON sent as text/plain', { raw: toJson(valid), contentType: 'text/plain' }, { status: 415 }),
    rest('a form body', { raw: 'name=x&email=y', contentType: 'application/x-www-form-urlencoded' }, { status: 415 }),
    // A read asked with POST takes no key (src/http/reads-asked-by-post.ts), so it has none to refuse.
    ...(context.forms[0]!.idempotent ? [`key-${MARKER}`, ''] : []).map(
      (key): Probe => ({
        what: `Idempotency-Key ${JSON.stringify(key)}`,
        headers: { 'idempotency-key': key },
        expect: { field: 'Idempotency-Key', quiet: true },
        transport: 'either',
      }),
    ),
  ];
  if (context.inputType === undefined) {
    // A body where none is taken: refused, and the write not done.
    for (const body of [{ [`zz${MARKER}`]: 1 }, [1], 'x', 7, true]) probes.push(rest(`a body ${JSON.stringify(body)} where none is taken`, body, { field: 'body' }));
    return probes;
  }
  const shapes: [string, unknown][] = [['a string', `x${MARKER}`], ['a number', 42], ['a boolean', true], ['a list', [valid]]];
  if (isNonNullType(context.inputType)) shapes.push(['null', null]);
  for (const [what, body] of shapes) probes.push(rest(`${what} for the body`, body, { field: 'body', quiet: true }));
  probes.push(
    { what: 'an unknown field', body: { ...(valid as object), [`zz${MARKER}`]: 1 }, expect: { field: `zz${MARKER}` }, transport: 'either' },
    { what: 'a field of another operation', body: { ...(valid as object), applicationId: SAMPLE_UUID }, expect: { field: 'applicationId' }, transport: 'either' },
    rest('a __proto__ field', { raw: toJson(valid).replace(/^\{/, '{"__proto__": {"admin": true}, ').replace(', }', '}'), contentType: 'application/json' }, { field: '__proto__' }),
    { what: 'nested 40 deep', body: { ...(valid as object), [`deep${MARKER}`]: nested(40) }, expect: { field: 'body' }, transport: 'either' },
    { what: 'a key with a lone surrogate', body: { ...(valid as object), ['\uDC00']: 1 }, expect: { field: 'body' }, transport: 'either' },
    rest('over 1 MiB of whitespace', { raw: `${' '.repeat(MEBIBYTE + 1)}${toJson(valid)}`, contentType: 'application/json' }, { status: 413 }),
  );
  for (const slot of slotsOf(context.inputType).filter((candidate) => isInputObjectType(getNullableType(candidate.type)))) {
    const inner = [...slot.path, `zz${MARKER}`];
    const body = withValue(bodyFor(operation, context.victim, { path: inner }), inner, 1);
    probes.push({ what: `an unknown field in ${fieldPath(slot.path)}`, body, expect: { field: fieldPath(inner) }, transport: 'either' });
  }
  return probes;
}

/** Path parameters that are no id, or no value of their enum. */
function pathProbes(context: RowContext): Probe[] {
  const variables = context.forms.at(-1)!.operation.variables;
  const probes: Probe[] = [];
  const params = new Set(context.forms.flatMap((form) => [...form.url.matchAll(/:(\w+)/g)].map((match) => match[1]!)));
  for (const name of params) {
    const isUuid = getNamedType(typeFromAST(schema(), variables.get(name)! as never) as GraphQLInputType).name === 'UUID';
    const values: Hostile[] = isUuid
      ? [...sample(context.random, NOT_UUIDS.filter((hostile) => hostile.value !== ''), 4), { what: 'a 1000-character id', value: 'a'.repeat(1000) }]
      : [
          { what: 'an unknown name', value: `nope${MARKER}` },
          { what: 'a name in capitals', value: 'PASSWORD' },
          { what: 'an emoji', value: '😀' },
          { what: 'a NUL', value: '\u0000' },
        ];
    for (const hostile of values) {
      probes.push({ what: `:${name} ${hostile.what}`, params: { [name]: hostile.value as string }, expect: { field: name, quiet: true }, transport: 'either' });
    }
    // Not UTF-8 once decoded: the router cannot read the path (a 404, docs/decisions.md).
    probes.push({ what: `:${name} malformed percent-encoding`, segments: { [name]: '%E0%A4%A' }, expect: { status: 404 }, transport: 'rest' });
    probes.push({ what: `:${name} a UTF-8 encoded lone surrogate`, segments: { [name]: '%ED%A0%80' }, expect: { status: 404 }, transport: 'rest' });
  }
  return probes;
}

const PAGE_SIZES = ['0', '-1', '101', 'NaN', '1.5', '1e2', '99999999999999999999', '%205', '0x10', '%EF%BC%95', 'Infinity', '-0', '5%00', 'true', ''];
const CURSORS = ['garbage', `x${'y'.repeat(4000)}`, '%00', 'eyJpZCI6MX0', 'null', '%ED%A0%80', '%F0%9F%98%80', `${MARKER}%E2%80%AE`, ''];

/** Query strings: unknown and misplaced parameters everywhere; page sizes and cursors that are none on lists. */
function queryProbes(context: RowContext): Probe[] {
  const { random } = context;
  const variables = context.forms[0]!.operation.variables;
  const rest = (what: string, query: string, field: string): Probe => ({ what, query, expect: { field, quiet: true }, transport: 'rest' });
  const probes: Probe[] = [
    rest('an unknown query parameter', `zz${MARKER}=1`, `zz${MARKER}`),
    rest('appId in the query', `appId=${context.victim.params['appId']}`, 'appId'),
    rest('tenantId in the query', `tenantId=${context.victim.params['tenantId']}`, 'tenantId'),
  ];
  if (variables.has('input')) probes.push(rest('the body in the query', 'input=%7B%7D', 'input'));
  if (!variables.has('pageSize')) return probes;
  for (const size of sample(random, PAGE_SIZES, 6)) probes.push(rest(`pageSize=${size}`, `pageSize=${size}`, 'pageSize'));
  for (const cursor of sample(random, CURSORS, 4)) probes.push(rest(`cursor=${cursor.slice(0, 20)}`, `cursor=${cursor}`, 'cursor'));
  probes.push(rest('pageSize twice', 'pageSize=1&pageSize=2', 'pageSize'), rest('a cursor of another list', `cursor=${encodeURIComponent(context.foreignCursor)}`, 'cursor'));
  const graphql = (what: string, values: Record<string, unknown>, field: string): Probe => ({
    what: `${what} (variables)`,
    variables: values,
    expect: { field, quiet: true },
    transport: 'graphql',
  });
  for (const pageSize of sample(random, [0, -1, 101, 1.5, '5', 2 ** 31, true], 3)) probes.push(graphql(`pageSize ${JSON.stringify(pageSize)}`, { pageSize }, 'pageSize'));
  for (const cursor of sample(random, [`garbage${MARKER}`, 7, { a: MARKER }, `${MARKER}\u0000`], 2)) probes.push(graphql(`cursor ${JSON.stringify(cursor)}`, { cursor }, 'cursor'));
  probes.push(graphql('a cursor of another list', { cursor: context.foreignCursor }, 'cursor'));
  return probes;
}

function probesOf(context: RowContext): Probe[] {
  return [...fieldProbes(context), ...bodyProbes(context), ...pathProbes(context), ...queryProbes(context)];
}

// ---------------------------------------------------------------------------------------------------------------------
// Requests and their judgement

let schemaCache: GraphQLSchema | undefined;
const schema = () => (schemaCache ??= buildSchema());

/** A probe on its drawn path form and transport, ready to send. */
interface Planned {
  readonly probe: Probe;
  readonly transport: Transport;
  readonly label: string;
  readonly method: string;
  readonly url: string;
  readonly body: RawBody | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly rootField: string;
}

const shorten = (text: string, length: number) => (text.length > length ? `${text.slice(0, length)}… (${text.length} characters)` : text);

function plan(context: RowContext, probe: Probe, paramOverrides: Readonly<Record<string, string>>): Planned {
  const named = Object.keys({ ...probe.params, ...probe.segments });
  const candidates = context.forms.filter((form) => named.every((name) => form.url.includes(`:${name}`)));
  const form = pick(context.random, candidates.length > 0 ? candidates : context.forms);
  const transport = probe.transport === 'either' ? pick(context.random, ['rest', 'graphql'] as const) : probe.transport;
  const valueOf = (name: string) => probe.params?.[name] ?? paramOverrides[name] ?? context.victim.params[name];
  const body = 'body' in probe ? probe.body : form.operation.variables.has('input') ? bodyFor(context.operation, context.victim) : undefined;
  const common = { probe, transport, rootField: form.operation.rootField, headers: probe.headers ?? {} };
  if (transport === 'graphql') {
    const variables: Record<string, unknown> = {};
    for (const name of form.operation.variables.keys()) if (form.url.includes(`:${name}`)) variables[name] = valueOf(name);
    if (form.operation.variables.has('input') && body !== undefined) variables['input'] = body;
    Object.assign(variables, probe.variables);
    const raw = toJson({ query: form.operation.query, variables });
    const label = `GraphQL ${form.operation.name} (${form.form} form): ${probe.what}`;
    return { ...common, label, method: 'POST', url: '/graphql', body: { raw, contentType: 'application/json' } };
  }
  const path = form.url.replace(/:(\w+)/g, (_match, name: string) => probe.segments?.[name] ?? encodeURIComponent(valueOf(name) ?? ''));
  const url = `/api/v1${path}${probe.query === undefined ? '' : `?${probe.query}`}`;
  const raw = isRaw(body) ? body : body === undefined ? undefined : { raw: toJson(body), contentType: 'application/json' };
  return { ...common, label: `REST ${form.method} ${form.url}: ${probe.what}`, method: form.method, url, body: raw };
}

function showRequest(planned: Planned): string {
  const body = planned.body === undefined ? '' : ` [${planned.body.contentType}] ${shorten(planned.body.raw, 300)}`;
  const headers = Object.entries(planned.headers).map(([name, value]) => ` [${name}: ${JSON.stringify(value)}]`).join('');
  return `${planned.method} ${shorten(planned.url, 200)}${headers}${body}`;
}

async function send(planned: Planned): Promise<HttpResponse> {
  const { body, headers } = planned;
  return app.http.request(planned.method, planned.url, body === undefined ? { headers } : { raw: body.raw, headers: { ...headers, 'content-type': body.contentType } });
}

/** What the answer breaks of the rule, if anything. */
function problemsOf(planned: Planned, response: HttpResponse): string[] {
  const { expect: expected } = planned.probe;
  const problems: string[] = [];
  const { status } = response;
  const accepted = expected.mayAccept === true && status >= 200 && status < 300;
  if (!accepted && (status < 400 || status > 499)) problems.push(`status ${status}, not a 4xx`);
  if (!REQUEST_ID.test(response.headers.get('x-request-id') ?? '')) problems.push('no request id');
  if (accepted) return problems;
  const error = errorOf(planned, response, problems);
  if (error === undefined) return problems;
  const { code, field, message } = error;
  if (typeof code !== 'string' || !(code in STATUS_BY_CODE)) problems.push(`code ${JSON.stringify(code)} is not the contract's`);
  else if (STATUS_BY_CODE[code as keyof typeof STATUS_BY_CODE] !== status) problems.push(`code ${code} with status ${status}`);
  if (typeof message !== 'string' || message.trim() === '') problems.push('no message');
  else if (expected.quiet === true && message.includes(MARKER) && !String(field).includes(MARKER)) problems.push('the message repeats the refused value');
  if (code === 'validation_error' && (typeof field !== 'string' || field === '')) problems.push('a validation error without field');
  if (expected.status !== undefined && status !== expected.status) problems.push(`expected status ${expected.status}`);
  if (expected.field !== undefined && (code !== 'validation_error' || !fieldMatches(field, expected.field))) {
    problems.push(`expected 422 validation_error on ${expected.field}, got ${String(code)} on ${String(field)}`);
  }
  return problems;
}

/** The error in the transport's shape (REST: the contract's body; GraphQL: the first error's extensions), noting what is off. */
function errorOf(planned: Planned, response: HttpResponse, problems: string[]): Record<string, unknown> | undefined {
  if (planned.transport === 'rest') {
    const body = response.body as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      problems.push('the body is not a JSON object');
      return undefined;
    }
    const extra = Object.keys(body).filter((key) => !ERROR_BODY_KEYS.has(key));
    if (extra.length > 0) problems.push(`the error body has ${extra.join(', ')}`);
    return body as Record<string, unknown>;
  }
  const body = response.body as { data?: Record<string, unknown> | null; errors?: { message?: unknown; extensions?: Record<string, unknown> }[] };
  const first = body?.errors?.[0];
  if (first === undefined) {
    problems.push('no GraphQL error');
    return undefined;
  }
  if (body.data?.[planned.rootField] != null) problems.push('data beside the error');
  if (first.extensions?.['status'] !== response.status) problems.push(`extensions.status ${String(first.extensions?.['status'])} but HTTP ${response.status}`);
  return { ...first.extensions, message: first.message };
}

const fieldMatches = (actual: unknown, expected: string) =>
  typeof actual === 'string' && (actual === expected || actual.startsWith(`${expected}.`) || actual.startsWith(`${expected}[`));

/** Sends every planned request, CONCURRENCY at a time, answers in the plan's order. */
async function sendAll(planned: readonly Planned[]): Promise<HttpResponse[]> {
  const responses: HttpResponse[] = new Array(planned.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < planned.length; index = next++) responses[index] = await send(planned[index]!);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return responses;
}

// ---------------------------------------------------------------------------------------------------------------------
// The state that must not change

type DatabaseState = Readonly<Record<string, string>>;

let app: TestApp;
let victim: Victim;
/** Cursors of two lists, each misused on the others. */
let cursors: { tenants: string; apiKeys: string };
/** Path parameters that some rows need other than the isolation fixtures' (a secret to rotate). */
let paramOverrides: Readonly<Record<string, Readonly<Record<string, string>>>>;
let stateSql: string;
let initialState: DatabaseState;

/** A digest of every row of every table. */
async function databaseState(): Promise<DatabaseState> {
  const [row] = await app.sql<DatabaseState>(stateSql);
  return row!;
}

async function prepareStateSql(): Promise<string> {
  const tables = await app.sql<{ name: string }>(`select tablename as name from pg_tables where schemaname = current_schema() and tablename <> 'mikro_orm_migrations' order by 1`);
  return `select ${tables.map(({ name }) => `(select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from "${name}" t) as "${name}"`).join(', ')}`;
}

const changedTables = (before: DatabaseState, after: DatabaseState) => Object.keys(after).filter((table) => after[table] !== before[table]);

/** The audit records written since `known`, by the request that wrote them. */
async function auditRecordsSince(known: ReadonlySet<string>): Promise<{ id: string; request_id: string; action: string }[]> {
  const rows = await app.sql<{ id: string; request_id: string; action: string }>('select id, request_id, action from audit_log order by id');
  return rows.filter((row) => !known.has(row.id));
}

beforeAll(async () => {
  app = await startTestApp();
  victim = await seedVictim(app);
  const appPath = `/applications/${app.root.applicationId}`;
  // Tenant overrides reach their validation rather than stopping at the switch (409 tenant_customization_disabled).
  await app.http.patch(appPath, { tenancyConfig: { brandingScope: 'tenant', emailTemplatesScope: 'tenant', emailProviderScope: 'tenant' } });
  const secretCredential = await app.http.post('/m2m-credentials', { name: 'Fuzz secret m2m', permissions: ['users:read'], authMethod: 'client_secret_basic' });
  paramOverrides = { RotateM2MCredential: { credentialId: secretCredential.body.id as string } };
  cursors = {
    tenants: (await app.http.get(`${appPath}/tenants?pageSize=1`)).body.next as string,
    apiKeys: (await app.http.get('/api-keys?pageSize=1')).body.next as string,
  };
  if (typeof cursors.tenants !== 'string' || typeof cursors.apiKeys !== 'string') throw new Error('route-fuzz: no cursors to misuse');
  stateSql = await prepareStateSql();
  initialState = await databaseState();
});
afterAll(async () => app?.close());

const allForms = expandRoutes();
const rowName = (row: RouteDef) => `${row.method} ${row.path}`;
const isApplicationDeletion = (row: RouteDef) => row.method === 'DELETE' && row.path === '/applications/:appId';
/**
 * Deletions last, the application's very last: a refusal that is not one (a deletion done after all) would take the
 * fixtures of every later row with it and hide their own findings.
 */
const destructiveness = (row: RouteDef) => (isApplicationDeletion(row) ? 2 : row.method === 'DELETE' ? 1 : 0);
const rows = [...ROUTES].sort((a, b) => destructiveness(a) - destructiveness(b));

function contextOf(row: RouteDef): RowContext {
  const forms = allForms.filter((form) => form.method === row.method && form.path === row.path);
  const { operation } = forms[0]!;
  const inputNode = operation.variables.get('input');
  return {
    operation: operation.name,
    forms,
    inputType: inputNode === undefined ? undefined : (typeFromAST(schema(), inputNode as never) as GraphQLInputType | undefined),
    victim,
    random: prng(seedOf(rowName(row))),
    foreignCursor: operation.name === 'ListTenants' ? cursors.apiKeys : cursors.tenants,
  };
}

describe('hostile input on every row of the route table: a 4xx in the contract’s error body, and nothing changed', () => {
  it.each(rows.map((row) => [rowName(row), row] as const))('%s', async (_name, row) => {
    const context = contextOf(row);
    const probes = probesOf(context);
    const planned = probes.map((probe) => plan(context, probe, paramOverrides[context.operation] ?? {}));
    // A write whose draws all fell on REST (a row of few probes): its first probe that may go either way goes over
    // GraphQL, so that both transports meet it.
    const either = probes.findIndex((probe) => probe.transport === 'either');
    if (row.method !== 'GET' && either >= 0 && !planned.some((request) => request.transport === 'graphql')) {
      planned[either] = plan(context, { ...probes[either]!, transport: 'graphql' }, paramOverrides[context.operation] ?? {});
    }
    const knownAudit = new Set((await auditRecordsSince(new Set())).map((record) => record.id));
    const before = await databaseState();
    const responses = await sendAll(planned);

    const failures: string[] = [];
    const written = await auditRecordsSince(knownAudit);
    for (const [index, request] of planned.entries()) {
      const response = responses[index]!;
      const problems = problemsOf(request, response);
      const audited = written.filter((record) => record.request_id === response.headers.get('x-request-id'));
      if (audited.length > 0) problems.push(`wrote ${audited.map((record) => record.action).join(', ')}`);
      if (problems.length === 0) continue;
      const answer = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
      failures.push(`${request.label}\n    request: ${showRequest(request)}\n    answer: ${response.status} ${shorten(answer ?? '', 400)}\n    ${problems.join('; ')}`);
    }
    const changed = changedTables(before, await databaseState());
    if (changed.length > 0) failures.push(`the row's refusals changed ${changed.join(', ')}`);
    expect(failures, failures.join('\n')).toEqual([]);
    expect(planned.some((request) => request.transport === 'graphql') || context.forms[0]!.method === 'GET').toBe(true);
  });

  it('quotes an unknown query parameter as sent; `field` is its name, or the query string when the name is not one', async () => {
    const cases: [string, string, string][] = [
      ['?=1', 'Unknown query parameter ""', 'query'],
      ['?a%22b=1', 'Unknown query parameter "a\\"b"', 'query'],
      ['?a.b=1', 'Unknown query parameter "a.b"', 'query'],
      ['?colour=1', 'Unknown query parameter "colour"', 'colour'],
    ];
    for (const [query, message, field] of cases) {
      expect((await app.http.get(`/users${query}`)).body, query).toEqual({ code: 'validation_error', message, field });
    }
  });

  it('left every table as it was', async () => {
    expect(changedTables(initialState, await databaseState())).toEqual([]);
  });
});
