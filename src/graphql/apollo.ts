import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import type { RequestContext } from '../context.ts';
import { formatError } from './format-error.ts';

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

export async function createApollo(schema: GraphQLSchema, log: (error: unknown) => void): Promise<ApolloServer<RequestContext>> {
  const apollo = new ApolloServer<RequestContext>({
    schema,
    formatError: formatError(log),
    includeStacktraceInErrorResponses: false,
    introspection: true,
    // The service serves its own self-contained GraphiQL page at GET /graphql (server.ts).
    plugins: [statusFromErrors],
  });
  await apollo.start();
  return apollo;
}
