import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * Whether the field being resolved selects the sub-field `name`, directly or through a fragment (named or inline).
 * For checks a mutation must make before it writes anything: a selection it could not answer would otherwise fail
 * after the write committed.
 */
export function selectsField(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, name: string): boolean {
  const visited = new Set<string>();
  const inSet = (set: SelectionSetNode | undefined): boolean =>
    set?.selections.some((selection) => {
      if (selection.kind === Kind.FIELD) return selection.name.value === name;
      if (selection.kind === Kind.INLINE_FRAGMENT) return inSet(selection.selectionSet);
      const fragment = selection.name.value;
      if (visited.has(fragment)) return false;
      visited.add(fragment);
      return inSet(info.fragments[fragment]?.selectionSet);
    }) ?? false;
  return info.fieldNodes.some((node) => inSet(node.selectionSet));
}
