import { readFileSync, readdirSync } from 'node:fs';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { resolvers } from '../../resolvers/index.ts';
import { describePermissions } from './authorize-operation.ts';

const SCHEMA_DIR = new URL('../../schema/', import.meta.url);

/** The SDL of schema/, one file per area, in a stable order. */
export function loadTypeDefs(): string[] {
  return readdirSync(SCHEMA_DIR)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => readFileSync(new URL(file, SCHEMA_DIR), 'utf8'));
}

export function buildSchema(): GraphQLSchema {
  return describePermissions(makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers: resolvers as never, inheritResolversFromInterfaces: true }));
}
