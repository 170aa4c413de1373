import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import type { RequestContext } from '../context.ts';

/**
 * A response that carries no data reads with the status of its first error (401, 404, 422…), so HTTP clients and
 * proxies see failures as failures; a partial result stays 200, as GraphQL requires.
 */
const statusFromErrors: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        const { data, errors } = response.body.singleResult;
        const status = errors?.[0]?.extensions?.['status'];
        if (data == null && typeof status === 'number') response.http.status = status;
      },
    };
  },
};

export async function createApollo(
  schema: GraphQLSchema,
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError,
): Promise<ApolloServer<RequestContext>> {
  const apollo = new ApolloServer<RequestContext>({
    schema,
    formatError,
    includeStacktraceInErrorResponses: false,
    introspection: true,
    // The service serves its own self-contained GraphiQL page at GET /graphql (server.ts).
    // No cache hints are used: without the plugin, Apollo does not wrap every field resolver to collect them.
    plugins: [statusFromErrors, ApolloServerPluginCacheControlDisabled()],
  });
  await apollo.start();
  return apollo;
}
