import {
  isObjectType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { OPERATION_PERMISSIONS, ruleOf, type OperationRule } from '../auth/operation-permissions.ts';
import type { Permission } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { scopeTenant } from '../context.ts';
import { GatehouseError } from '../errors.ts';
import { isUuid } from '../ids.ts';

/** The rules of every field it selects, through fragments, joined; linear in the document, which the limits bound. */
export function operationRule(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): OperationRule {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const permissions = new Set<Permission>();
  const tenantScope = new Set<Permission>();
  let applicationLevel = false;
  // A reactivation beside any other field is not served while deactivated.
  let whileDeactivated = true;
  let fields = 0;
  const reached = new Set<string>();
  const pending: (OperationDefinitionNode | FragmentDefinitionNode)[] = [operation];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    const typeInfo = new TypeInfo(schema);
    visit(
      node,
      visitWithTypeInfo(typeInfo, {
        Field(field) {
          const parent = typeInfo.getParentType();
          const rule = parent == null ? undefined : ruleOf(`${parent.name}.${field.name.value}`);
          if (rule === undefined) return;
          fields += 1;
          if (rule.whileDeactivated !== true) whileDeactivated = false;
          for (const permission of rule.permissions) permissions.add(permission);
          for (const permission of rule.tenantScope ?? []) tenantScope.add(permission);
          if (rule.applicationLevel === true) applicationLevel = true;
        },
        FragmentSpread(spread) {
          const fragment = fragments.get(spread.name.value);
          if (fragment === undefined || reached.has(spread.name.value)) return;
          reached.add(spread.name.value);
          pending.push(fragment);
        },
      }),
    );
  }
  return {
    permissions: [...permissions],
    ...(tenantScope.size === 0 ? {} : { tenantScope: [...tenantScope] }),
    ...(applicationLevel ? { applicationLevel: true } : {}),
    ...(whileDeactivated && fields > 0 ? { whileDeactivated: true } : {}),
  };
}

export function describeRule(rule: OperationRule): string {
  const list = (permissions: readonly Permission[]) => permissions.map((p) => `\`${p}\``).join(', ');
  const held = rule.permissions.length === 0 ? 'No permission.' : `Requires ${list(rule.permissions)}.`;
  const inTenant = rule.tenantScope === undefined ? held : `${held} In a tenant scope also ${list(rule.tenantScope)}.`;
  return rule.applicationLevel === true ? `${inTenant} Application-wide credentials only.` : inTenant;
}

/** So that the schema's own documentation states the permission table. */
export function describePermissions(schema: GraphQLSchema): GraphQLSchema {
  for (const [coordinate, rule] of Object.entries(OPERATION_PERMISSIONS)) {
    const [typeName, fieldName] = coordinate.split('.') as [string, string];
    const type = schema.getType(typeName);
    const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
    if (field === undefined) throw new Error(`operation-permissions.ts: ${coordinate} is not a field of the schema`);
    field.description = [field.description, describeRule(rule)].filter((text) => text != null && text !== '').join('\n\n');
  }
  return schema;
}

/** A stream outlives its request: the principal as it stands now, or its refusal. Any other failure is thrown, so the
 *  stream ends as failed. */
export async function authorizedNow(principal: () => Promise<Principal>, rule: OperationRule, pathTenants: readonly (string | null)[]): Promise<Principal | GatehouseError> {
  try {
    const now = await principal();
    await authorize(now, rule, pathTenants);
    return now;
  } catch (error) {
    if (!(error instanceof GatehouseError)) throw error;
    // The credentials, then what they hold, are read one after the other: revoked between the two reads they would lack
    // a permission (403), where the contract says revoked (401). Asked again, they say which.
    return error.code === 'forbidden' ? ((await unauthenticatedNow(principal)) ?? error) : error;
  }
}

async function unauthenticatedNow(principal: () => Promise<Principal>): Promise<GatehouseError | undefined> {
  try {
    await principal();
    return undefined;
  } catch (error) {
    if (!(error instanceof GatehouseError)) throw error;
    return error.code === 'unauthenticated' ? error : undefined;
  }
}

/** authorizedNow's refusal alone. */
export async function refusalNow(principal: () => Promise<Principal>, rule: OperationRule, pathTenants: readonly (string | null)[]): Promise<GatehouseError | undefined> {
  const answer = await authorizedNow(principal, rule, pathTenants);
  return answer instanceof GatehouseError ? answer : undefined;
}

/** One per request, made once however many ask (a keyed mutation's endpoint, then Apollo's gate); read by withIdempotency. */
const decisions = new WeakMap<Principal, Decision>();

interface Decision {
  readonly rule: OperationRule;
  readonly pathTenants: readonly (string | null)[];
  readonly tenants: Promise<readonly (string | null)[]>;
}

/** Or an equal rule: Apollo's own parse of the document the endpoint checked. */
const asks = (decision: Decision, rule: OperationRule, pathTenants: readonly (string | null)[]) =>
  decision.pathTenants.length === pathTenants.length &&
  decision.pathTenants.every((tenant, index) => tenant === pathTenants[index]) &&
  (decision.rule === rule || JSON.stringify(decision.rule) === JSON.stringify(rule));

/**
 * Throws 403 `organization_deactivated` (unless reactivating) or `forbidden`; else answers the tenants acted in, each
 * settled by scopeTenant as the scope will. Nothing is read when the rule needs no permission.
 */
export function authorize(principal: Principal, rule: OperationRule, pathTenants: readonly (string | null)[]): Promise<readonly (string | null)[]> {
  const decided = decisions.get(principal);
  if (decided !== undefined && asks(decided, rule, pathTenants)) return decided.tenants;
  const tenants = decide(principal, rule, pathTenants);
  decisions.set(principal, { rule, pathTenants, tenants });
  return tenants;
}

async function decide(principal: Principal, rule: OperationRule, pathTenants: readonly (string | null)[]): Promise<readonly (string | null)[]> {
  if (principal.organizationDeactivated && rule.whileDeactivated !== true) {
    throw new GatehouseError('organization_deactivated', 'The organization is deactivated: only its reactivation is served');
  }
  // No root field named: the credentials' own tenant, never nothing checked. An application-level rule is also asked
  // application-wide: a permission held only through a tenant path's role holds in that tenant alone.
  const tenants = pathTenants.length === 0 || rule.applicationLevel === true ? [...pathTenants, null] : pathTenants;
  const actsIn = new Set<string | null>();
  for (const pathTenant of new Set(tenants)) {
    const tenantId = scopeTenant(principal, pathTenant);
    actsIn.add(tenantId);
    const needed = tenantId === null ? rule.permissions : [...rule.permissions, ...(rule.tenantScope ?? [])];
    if (needed.length === 0) continue;
    const held = await principal.permissionsIn(tenantId);
    for (const permission of needed) {
      if (!held.allows(permission)) throw new GatehouseError('forbidden', `Missing permission ${permission}`);
    }
  }
  if (rule.applicationLevel === true && principal.tenantId !== null) {
    throw new GatehouseError('forbidden', 'This operation is not available to a tenant scope');
  }
  return [...actsIn];
}

/** An error when no check was made. */
export async function checkedTenants(principal: Principal): Promise<readonly (string | null)[]> {
  const decided = decisions.get(principal);
  if (decided === undefined) throw new Error('the request’s permission check has not been made');
  return decided.tenants;
}

/** null: left out or null. */
type TenantSource = { readonly literal: string | null } | { readonly variable: string; readonly fallback: string | null };

/** Anything else is refused by coercion. */
export function pathTenant(value: unknown): string | null {
  return typeof value === 'string' && isUuid(value) ? value.toLowerCase() : null;
}

/** Each root field's scope is its own. Literals are checked by validation before the gate; variables by coercion after it. */
function tenantSources(document: DocumentNode, operation: OperationDefinitionNode): TenantSource[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const defaults = new Map<string, string | null>();
  for (const definition of operation.variableDefinitions ?? []) {
    const value = definition.defaultValue;
    defaults.set(definition.variable.name.value, value?.kind === Kind.STRING ? value.value : null);
  }
  const sources: TenantSource[] = [];
  const spread = new Set<string>();
  const walk = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        if (fragment === undefined || spread.has(selection.name.value)) continue;
        spread.add(selection.name.value);
        walk(fragment.selectionSet);
      } else {
        const value = selection.arguments?.find((argument) => argument.name.value === 'tenantId')?.value;
        if (value?.kind === Kind.VARIABLE) sources.push({ variable: value.name.value, fallback: defaults.get(value.name.value) ?? null });
        else sources.push({ literal: value?.kind === Kind.STRING ? value.value : null });
      }
    }
  };
  walk(operation.selectionSet);
  return sources;
}

/** Worked out once per operation. */
export function operationTenants(): (document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>) => (string | null)[] {
  const known = new WeakMap<OperationDefinitionNode, TenantSource[]>();
  return (document, operation, variables) => {
    let sources = known.get(operation);
    if (sources === undefined) {
      sources = tenantSources(document, operation);
      known.set(operation, sources);
    }
    return sources.map((source) =>
      'literal' in source ? pathTenant(source.literal) : pathTenant(Object.hasOwn(variables, source.variable) ? variables[source.variable] : source.fallback),
    );
  };
}

/** Apollo hands out the same document for the same query text. */
export function operationRules(): (schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode) => OperationRule {
  const rules = new WeakMap<OperationDefinitionNode, OperationRule>();
  return (schema, document, operation) => {
    let rule = rules.get(operation);
    if (rule === undefined) {
      rule = operationRule(schema, document, operation);
      rules.set(operation, rule);
    }
    return rule;
  };
}
