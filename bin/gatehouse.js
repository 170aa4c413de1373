#!/usr/bin/env node
// The `gatehouse` command. Needs Node ≥ 22.18 (TypeScript type stripping): npx and npm scripts provide it.
await import('../src/process/cli.ts');
