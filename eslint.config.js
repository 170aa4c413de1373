import js from '@eslint/js';
import graphqlPlugin from '@graphql-eslint/eslint-plugin';
import tseslint from 'typescript-eslint';

/** Type-checked lint for TypeScript, schema lint for the SDL, and the import boundaries of STYLE.md. */
export default tseslint.config(
  { ignores: ['node_modules/', 'src/generated/', 'data/', 'coverage/', 'test-results/'] },
  {
    files: ['**/*.ts'],
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
  {
    files: ['resolvers/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@mikro-orm/*'], message: 'Resolvers are thin: call a domain function.' }] }],
    },
  },
  {
    files: ['src/domain/**/*.ts', 'src/db/**/*.ts', 'src/auth/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['fastify', '@apollo/*', 'graphql', '**/resolvers/**', '**/rest/**', '**/graphql/**'], message: 'The domain never imports a transport.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'resolvers/**/*.ts'],
    ignores: ['src/auth/jwt.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'jose', message: 'Only src/auth/jwt.ts imports jose.', allowTypeImports: true }] }],
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
