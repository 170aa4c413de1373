import { getOperationAST, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { operationRule, operationTenants } from '../../src/graphql/authorize-operation.ts';
import { buildSchema } from '../../src/graphql/schema.ts';

const schema = buildSchema();
const ruleOf = (source: string, name?: string) => {
  const document = parse(source);
  const operation = getOperationAST(document, name);
  if (operation == null) throw new Error('no operation');
  return operationRule(schema, document, operation);
};

describe('the permission table applied to a document', () => {
  it('joins the rules of every root field', () => {
    const rule = ruleOf('query { users { data { id } } tenants { data { id } } }');
    expect([...rule.permissions].sort()).toEqual(['tenants:read', 'users:read']);
    expect(rule.applicationLevel).toBeUndefined();
  });

  it('counts a nested field that costs a permission, through fragments and inline fragments', () => {
    const rule = ruleOf(`
      query { tenants { data { ...T } } }
      fragment T on Tenant { id ... on Tenant { configuration { tenantId } } }`);
    expect([...rule.permissions].sort()).toEqual(['auth_providers:read', 'branding:read', 'domains:read', 'email:read', 'policies:read', 'tenants:read']);
  });

  it('takes only the chosen operation, and its own fragments', () => {
    const source = `
      query A { users { data { id } } }
      mutation B { deleteTenant(appId: "00000000-0000-0000-0000-000000000000", tenantId: "00000000-0000-0000-0000-000000000000") }`;
    expect(ruleOf(source, 'A')).toEqual({ permissions: ['users:read'] });
    expect(ruleOf(source, 'B')).toEqual({ permissions: ['tenants:delete'], applicationLevel: true });
  });

  it('asks nothing of introspection and the version', () => {
    expect(ruleOf('{ __schema { queryType { name } } version }')).toEqual({ permissions: [] });
  });

  it('states each rule in the schema’s descriptions', () => {
    expect(schema.getQueryType()?.getFields()['users']?.description).toContain('Requires `users:read`.');
    expect(schema.getMutationType()?.getFields()['createTenant']?.description).toContain('Application-wide credentials only.');
  });

  it('adds what a tenant scope needs to an override’s write, and says so', () => {
    expect(ruleOf('mutation { removeBrandingOverride }')).toEqual({ permissions: ['branding:delete'], tenantScope: ['tenant_overrides:write'] });
    expect(schema.getMutationType()?.getFields()['putBranding']?.description).toContain('In a tenant scope also `tenant_overrides:write`.');
  });
});

describe('the tenants an operation acts in', () => {
  const A = '0190a5f0-0000-7000-8000-00000000000a';
  const B = '0190a5f0-0000-7000-8000-00000000000b';
  const tenantsOf = (source: string, variables: Record<string, unknown> = {}) => {
    const document = parse(source);
    const operation = getOperationAST(document);
    if (operation == null) throw new Error('no operation');
    return operationTenants()(document, operation, variables);
  };

  it('reads each root field’s tenantId: a literal, a variable, its default, through fragments; none is null', () => {
    const source = `query ($t: UUID, $d: UUID = "${B}") {
      a: users(tenantId: "${A.toUpperCase()}") { next } b: users(tenantId: $t) { next } c: users(tenantId: $d) { next }
      ... on Query { d: users { next } } ...F }
      fragment F on Query { e: users(tenantId: null) { next } }`;
    expect(tenantsOf(source, { t: B })).toEqual([A, B, B, null, null]);
    // A variable given overrides its default; one left out or null is the credentials' tenant.
    expect(tenantsOf(source, { d: A })).toEqual([A, null, A, null, null]);
  });

  it('a malformed value names no tenant: coercion refuses it after the gate', () => {
    expect(tenantsOf('query ($t: UUID) { users(tenantId: $t) { next } }', { t: 'not-a-uuid' })).toEqual([null]);
  });
});
