import { defineConfig, type Connect, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

/**
 * The back office is served under /admin/, but its three public pages live beside it at the site root
 * (seed 000 §2.1). In production the API server answers those paths with this app's index.html; this
 * plugin does the same for `vite` and `vite preview` so the pages can be opened locally.
 */
const PUBLIC_PAGES = /^\/(admin-login|admin-two-factor-auth|admin-reset-password)\/?(\?.*)?$/;

const rewritePublicPages: Connect.NextHandleFunction = (req, _res, next) => {
  if (req.url && PUBLIC_PAGES.test(req.url)) {
    const query = req.url.indexOf('?');
    req.url = '/admin/index.html' + (query >= 0 ? req.url.slice(query) : '');
  }
  next();
};

const publicPagesFallback = (): Plugin => ({
  name: 'admin-public-pages-fallback',
  configureServer(server) {
    server.middlewares.use(rewritePublicPages);
  },
  configurePreviewServer(server) {
    server.middlewares.use(rewritePublicPages);
  },
});

/** Where `/api` goes in `vite` and `vite preview`; the API server listens on 3000 by default. */
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:3000';

export default defineConfig({
  base: '/admin/',
  // Brotli and gzip copies beside each script and style, as the member app's (the api sends them preCompressed).
  plugins: [react(), publicPagesFallback(), compression({ algorithms: ['brotliCompress', 'gzip'], exclude: [/\.map$/], threshold: 1024 })],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1000 },
  server: {
    port: 5174,
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  preview: {
    port: 4174,
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
});
