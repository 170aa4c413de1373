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
} from 'graphql';
import { OPERATION_PERMISSIONS, ruleOf, type OperationRule } from '../auth/operation-permissions.ts';
import type { Permission } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { GatehouseError } from '../errors.ts';

/**
 * What running `operation` takes: the rules (src/auth/operation-permissions.ts) of every field it selects, through
 * the fragments it spreads, joined. Linear in the document, which the operation limits bound.
 */
export function operationRule(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): OperationRule {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const permissions = new Set<Permission>();
  let applicationLevel = false;
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
          for (const permission of rule.permissions) permissions.add(permission);
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
  return applicationLevel ? { permissions: [...permissions], applicationLevel: true } : { permissions: [...permissions] };
}

/** How the SDL's descriptions and the OpenAPI document state a rule. */
export function describeRule(rule: OperationRule): string {
  const held = rule.permissions.length === 0 ? 'No permission.' : `Requires ${rule.permissions.map((p) => `\`${p}\``).join(', ')}.`;
  return rule.applicationLevel === true ? `${held} Application-wide credentials only.` : held;
}

/** Appends each field's rule to its description, so that the schema's own documentation states the permission table. */
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

/** Throws 403 `forbidden` unless the credentials may run an operation of this rule. */
export function authorize(principal: Principal, rule: OperationRule): void {
  for (const permission of rule.permissions) {
    if (!principal.permissions.allows(permission)) throw new GatehouseError('forbidden', `Missing permission ${permission}`);
  }
  if (rule.applicationLevel === true && principal.tenantId !== null) {
    throw new GatehouseError('forbidden', 'This operation is not available to a tenant scope');
  }
}

/** operationRule, worked out once per parsed operation: Apollo hands out the same document for the same query text. */
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
