/**
 * The route table's guard, guarded: `npm run typecheck` compiles this file (it is never run), and each
 * `@ts-expect-error` fails the build if the row below it stops being a type error.
 */
import * as op from '../../src/generated/operations.ts';
import { routeTable } from '../../src/rest/routes.ts';

const computedPath: string = '/users/:userId';

// Rows that match their operations compile, owned ones included.
routeTable([
  { method: 'GET', path: '/users/:userId', operation: op.GetUserDocument, summary: 'Get a user', owned: true },
  { method: 'GET', path: '/applications/:appId/tenants/:tenantId', operation: op.GetTenantDocument, summary: 'Get a tenant' },
]);

routeTable([
  { method: 'GET', path: '/users', operation: op.ListUsersDocument, summary: 'List users', owned: true },
  // A path parameter that is no variable of the operation.
  // @ts-expect-error: the operation has no $userId
  { method: 'GET', path: '/applications/:appId/users/:userId', operation: op.GetApplicationDocument, summary: 'Get a user' },
]);

// An owned row whose operation cannot take the application and tenant of its path forms.
// @ts-expect-error: the operation has no $tenantId
routeTable([{ method: 'GET', path: '/application', operation: op.GetApplicationDocument, summary: 'Get the application', owned: true }]);

// Only a GET may be answered from the read cache.
// @ts-expect-error: reads on a write
routeTable([{ method: 'POST', path: '/users', operation: op.CreateUserDocument, summary: 'Create a user', owned: true, reads: 'users' }]);

// An operation that does not exist.
// @ts-expect-error: no such typed document
routeTable([{ method: 'GET', path: '/users/:userId', operation: op.GetUsrDocument, summary: 'Get a user' }]);

// A fragment's document is not an operation.
// @ts-expect-error: not an OperationDocument
routeTable([{ method: 'GET', path: '/users', operation: op.UserFieldsFragmentDoc, summary: 'A user' }]);

// A path tsc cannot read.
// @ts-expect-error: a literal path is required
routeTable([{ method: 'GET', path: computedPath, operation: op.GetUserDocument, summary: 'Get a user' }]);
