import { defineConfig } from 'vite';

// Gatehouse serves dist/ at /dashboard/ and adds the issuer, client and audience meta tags to index.html per request.
export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  // Vite 8 transforms JSX with Oxc itself; the automatic runtime imports react/jsx-runtime, so no plugin is needed.
  oxc: { jsx: { runtime: 'automatic' } },
  build: { outDir: 'dist', emptyOutDir: true },
});
