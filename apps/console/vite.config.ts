import { defineConfig } from "vite"

// The console's page: hashed scripts and one stylesheet under /assets/, index.html linking them, no inline script
// (the CSP the API serves it with allows none); the playground's type checker is a module worker of its own.
// scripts/bundle-assets.mjs turns dist/web into the module the hosts serve.
export default defineConfig({
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  worker: { format: "es" },
  build: {
    outDir: "dist/web",
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
})
