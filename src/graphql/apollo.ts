import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { specifiedRules, validate, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { Principal } from '../auth/principal.ts';
import { invalid, isErrorCode, STATUS_BY_CODE } from '../errors.ts';
import { noteRequest } from '../observability/log.ts';
import type { RequestContext } from '../context.ts';
import { authorize, operationRules, operationTenants } from './authorize-operation.ts';
import { countOperation, operationLabels } from './operation-metrics.ts';
import { KnownOperationTypesRule, OPERATION_LIMITS, OperationLimitsRule } from './operation-limits.ts';
import { variablesRefusal } from './variable-coercion.ts';

/** Each operation's rule and tenant sources are worked out once per parsed document. */
export type OperationCheck = (
  principal: Principal,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
) => Promise<readonly (string | null)[]>;

function operationCheck(schema: GraphQLSchema): OperationCheck {
  const rules = operationRules();
  const tenants = operationTenants();
  return async (principal, document, operation, variables) => {
    const named = tenants(document, operation, variables);
    // The log names the tenant the operation asks for, as a REST path does: when its every root field names the same one.
    const [first] = named;
    if (first != null && named.every((tenant) => tenant === first)) noteRequest({ tenantId: first });
    return authorize(principal, rules(schema, document, operation), named);
  };
}

/**
 * The permission table first (an unauthorized caller's input is never read in depth), then the REST adapter's bounded
 * variable check, so both transports refuse alike. One hook for this order: Apollo runs plugins' hooks at once.
 */
function operationGatePlugin(check: OperationCheck): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          // Apollo refuses a request whose operation it could not choose before this hook.
          if (operation === undefined) return;
          const variables = request.variables ?? {};
          await check(contextValue.principal, document, operation, variables);
          const refused = variablesRefusal(schema, operation.variableDefinitions ?? [], variables);
          if (refused !== undefined) throw refused;
        },
      };
    },
  };
}

/** Counted by type and root field (operation-metrics.ts); outcome `ok` or the first error's code. */
function operationMetricsPlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ schema, operation, errors, response }) {
          const body = response.body.kind === 'single' ? response.body.singleResult : undefined;
          const sent = body?.errors ?? errors ?? [];
          const code = sent[0]?.extensions?.['code'];
          const labels = operationLabels(schema, operation);
          // A refusal that matters to security is `warn` whatever status the media type answers it with (200 in JSON).
          const refusal = isErrorCode(code) && [403, 429].includes(STATUS_BY_CODE[code]) ? code : undefined;
          noteRequest({ operation: `${labels.type} ${labels.field}`, ...(refusal === undefined ? {} : { refusal }) });
          countOperation(labels, sent, code);
        },
      };
    },
  };
}

/** Apollo's own, after graphql-js's. */
const VALIDATION_RULES = [KnownOperationTypesRule, OperationLimitsRule];

/**
 * The check of a document Apollo has not validated yet: refused (422) unless it validates as Apollo will, since the
 * check reads the permissions of every tenant its root fields name (hundreds, past the limits' one write).
 */
function validatedOperationCheck(schema: GraphQLSchema, check: OperationCheck): OperationCheck {
  const rules = [...specifiedRules, ...VALIDATION_RULES];
  return async (principal, document, operation, variables) => {
    const [refused] = validate(schema, document, rules, { maxErrors: 1 });
    if (refused !== undefined) throw invalid('query', refused.message);
    return check(principal, document, operation, variables);
  };
}

/** The /graphql endpoint runs the check too, before a keyed mutation's stored answer is replayed (http-endpoint.ts). */
export type GraphQLServer = ApolloServer<RequestContext> & { readonly checkOperation: OperationCheck };

export async function createApollo(
  schema: GraphQLSchema,
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError,
): Promise<GraphQLServer> {
  const check = operationCheck(schema);
  const apollo = new ApolloServer<RequestContext>({
    schema,
    formatError,
    includeStacktraceInErrorResponses: false,
    introspection: true,
    validationRules: VALIDATION_RULES,
    parseOptions: { maxTokens: OPERATION_LIMITS.tokens },
    // A request asking for a persisted query is refused (422), not half-served.
    persistedQueries: false,
    // Without the cache-control plugin, Apollo does not wrap every field resolver to collect hints.
    plugins: [ApolloServerPluginCacheControlDisabled(), operationGatePlugin(check), operationMetricsPlugin()],
    // The service's shutdown stops Apollo after the requests in flight (src/app.ts); Apollo's signal handler would fail them.
    stopOnTerminationSignals: false,
  });
  await apollo.start();
  return Object.assign(apollo, { checkOperation: validatedOperationCheck(schema, check) });
}
