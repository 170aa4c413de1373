import js from '@eslint/js';
import graphqlPlugin from '@graphql-eslint/eslint-plugin';
import tseslint from 'typescript-eslint';

const RESOLVERS_ARE_THIN = { group: ['@mikro-orm/*'], message: 'Resolvers are thin: call a domain function.' };
const NO_TRANSPORT = {
  group: ['fastify', '@apollo/*', 'graphql', '**/resolvers/**', '**/rest/**', '**/graphql/**'],
  message: 'The domain never imports a transport.',
};
// Sign-in is one domain (src/domain/sign-in/) with two adapters over it that never import each other: the OP
// (src/oidc/) and the hosted pages (src/hosted/); what both render lives in src/pages/.
const adaptersApart = (...others) => ({
  group: others.map((other) => `**/${other}/**`),
  message: 'src/oidc/ and src/hosted/ are adapters over src/domain/sign-in/: neither imports the other, and src/pages/ (what both render) neither.',
});
const NO_ADAPTERS = {
  group: ['**/oidc/**', '**/hosted/**', '**/pages/**'],
  message: 'The domain never imports an adapter (src/oidc/, src/hosted/) or the pages they render.',
};
// Authentication (src/auth/) reads the domain, never the reverse; the domain takes only auth's primitives, which import
// nothing of it: the permission and operation tables, secrets and hashes, and tokens.
const NO_AUTHENTICATION = {
  group: [
    '**/auth/**',
    ...['permissions', 'operation-permissions', 'password-hash', 'client-secrets', 'api-key-secret', 'signing-keys', 'jwt'].map((primitive) => `!**/auth/${primitive}.ts`),
  ],
  message: 'src/auth/ imports the domain, not the reverse: put what both need in src/domain/.',
};
// A domain function reaches what its Scope's services hold (DomainServices): the OP, the REST read cache, the token events
// and the audit waker are the adapters' and the transports'.
const NO_WHOLE_SERVICES = {
  group: ['**/services.ts'],
  importNames: ['Services'],
  message: 'The domain takes DomainServices (or a Pick of it), never the whole of Services (test/types/domain-services.ts).',
};
const JOSE_OUTSIDE_JWT = { name: 'jose', message: 'Only src/auth/jwt.ts imports jose.', allowTypeImports: true };
const restrictedImports = (patterns, paths) => ['error', { patterns, paths }];

/** Type-checked lint for TypeScript, schema lint for the SDL, and the import boundaries of STYLE.md. */
export default tseslint.config(
  { ignores: ['node_modules/', 'src/generated/', 'packages/client/src/schema.ts', 'packages/client/dist/', 'data/', 'coverage/', 'test-results/', 'dashboard/dist/'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Fastify and Apollo hooks are async by contract even when a body has nothing to await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  // The import boundaries. ESLint keeps only the last block's options of a rule for a file, so each block states every
  // restriction that applies to its files: the transport boundary or the ORM one, and jose's.
  {
    files: ['src/**/*.ts', 'resolvers/**/*.ts'],
    rules: { 'no-restricted-imports': restrictedImports([], [JOSE_OUTSIDE_JWT]) },
  },
  {
    files: ['resolvers/**/*.ts'],
    rules: { 'no-restricted-imports': restrictedImports([RESOLVERS_ARE_THIN], [JOSE_OUTSIDE_JWT]) },
  },
  {
    files: ['src/db/**/*.ts', 'src/auth/**/*.ts'],
    rules: { 'no-restricted-imports': restrictedImports([NO_TRANSPORT, NO_ADAPTERS], [JOSE_OUTSIDE_JWT]) },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: { 'no-restricted-imports': restrictedImports([NO_TRANSPORT, NO_ADAPTERS, NO_AUTHENTICATION, NO_WHOLE_SERVICES], [JOSE_OUTSIDE_JWT]) },
  },
  {
    files: ['src/oidc/**/*.ts'],
    rules: { 'no-restricted-imports': restrictedImports([adaptersApart('hosted')], [JOSE_OUTSIDE_JWT]) },
  },
  {
    files: ['src/hosted/**/*.ts'],
    rules: { 'no-restricted-imports': restrictedImports([adaptersApart('oidc')], [JOSE_OUTSIDE_JWT]) },
  },
  {
    files: ['src/pages/**/*.ts'],
    rules: { 'no-restricted-imports': restrictedImports([adaptersApart('oidc', 'hosted')], [JOSE_OUTSIDE_JWT]) },
  },
  {
    files: ['src/auth/jwt.ts'],
    rules: { 'no-restricted-imports': restrictedImports([NO_TRANSPORT, NO_ADAPTERS], []) },
  },
  {
    // A write begins in Scope.transactional: under an Idempotency-Key it must join the request's transaction.
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='transactional'][callee.object.property.name='em']",
          message: 'Begin a write with scope.transactional(…), which joins the request transaction of an Idempotency-Key.',
        },
      ],
    },
  },
  {
    files: ['schema/**/*.graphql'],
    languageOptions: { parser: graphqlPlugin.parser, parserOptions: { graphQLConfig: { schema: 'schema/*.graphql' } } },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: {
      '@graphql-eslint/require-description': ['error', { types: true, FieldDefinition: true, EnumValueDefinition: true }],
      '@graphql-eslint/known-type-names': 'error',
      '@graphql-eslint/unique-field-definition-names': 'error',
      '@graphql-eslint/no-hashtag-description': 'error',
    },
  },
);
