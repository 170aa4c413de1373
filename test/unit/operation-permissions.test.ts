import { getOperationAST, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { operationRule } from '../../src/graphql/authorize-operation.ts';
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
});
