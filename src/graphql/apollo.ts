import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import type { RequestContext } from '../context.ts';
import { authorizationPlugin } from './authorize-operation.ts';
import { KnownOperationTypesRule, OPERATION_LIMITS, OperationLimitsRule } from './operation-limits.ts';

export async function createApollo(
  schema: GraphQLSchema,
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError,
): Promise<ApolloServer<RequestContext>> {
  const apollo = new ApolloServer<RequestContext>({
    schema,
    formatError,
    includeStacktraceInErrorResponses: false,
    introspection: true,
    // graphql-js's own rules, then operations of a kind the API has (no subscription), and how much one request may ask
    // for (src/graphql/operation-limits.ts).
    validationRules: [KnownOperationTypesRule, OperationLimitsRule],
    parseOptions: { maxTokens: OPERATION_LIMITS.tokens },
    // Automatic persisted queries are not offered: a request that asks for one is refused (422), not half-served.
    persistedQueries: false,
    // The service serves its own self-contained GraphiQL page at GET /graphql (server.ts).
    // No cache hints are used: without the plugin, Apollo does not wrap every field resolver to collect them.
    plugins: [ApolloServerPluginCacheControlDisabled(), authorizationPlugin()],
  });
  await apollo.start();
  return apollo;
}
