import { defineConfig } from "vite"

// The console's page: one hashed script and one stylesheet under /assets/, index.html linking them, no inline script
// (the CSP the API serves it with allows none). scripts/bundle-assets.mjs turns dist/web into the module the hosts serve.
export default defineConfig({
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist/web",
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
})
