import { readFileSync, readdirSync } from 'node:fs';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { Kind, parse, type GraphQLSchema } from 'graphql';
import { resolvers } from '../../resolvers/index.ts';
import { describePermissions } from './authorize-operation.ts';

const SCHEMA_DIR = new URL('../../schema/', import.meta.url);

/** The SDL files of schema/, one per area, in a stable order. */
function schemaFiles(): { area: string; sdl: string }[] {
  return readdirSync(SCHEMA_DIR)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => ({ area: file.replace(/\.graphql$/, ''), sdl: readFileSync(new URL(file, SCHEMA_DIR), 'utf8') }));
}

export function loadTypeDefs(): string[] {
  return schemaFiles().map(({ sdl }) => sdl);
}

/** The area of each root field, by `Query.field` or `Mutation.field`: the name of the SDL file that defines it. */
export function rootFieldAreas(): ReadonlyMap<string, string> {
  const areas = new Map<string, string>();
  for (const { area, sdl } of schemaFiles()) {
    for (const definition of parse(sdl).definitions) {
      if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
      for (const field of definition.fields ?? []) areas.set(`${definition.name.value}.${field.name.value}`, area);
    }
  }
  return areas;
}

let built: GraphQLSchema | undefined;

/** The schema, built once per process: its SDL and resolvers are the same for every server of it. */
export function buildSchema(): GraphQLSchema {
  built ??= describePermissions(makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers: resolvers as never, inheritResolversFromInterfaces: true }));
  return built;
}
