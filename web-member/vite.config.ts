import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

export default defineConfig({
  base: '/',
  plugins: [
    react(),
    // Brotli and gzip copies beside each script, style and page, sent by the api to browsers that
    // accept them (@fastify/static preCompressed): compressed once at build, not on every request.
    compression({ algorithms: ['brotliCompress', 'gzip'], exclude: [/\.map$/], threshold: 1024 }),
  ],
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The libraries every page runs (React, the router, react-query, emotion, notistack) in a
          // chunk of their own: a new build of the app's code leaves it cached in the browser.
          // Only libraries the first script needs anyway, so no page's code is pulled forward.
          groups: [{ name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|@emotion|notistack|react-is|hoist-non-react-statics|stylis|cookie|set-cookie-parser)[\\/]/ }],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false },
    },
  },
});
