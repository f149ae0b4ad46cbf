import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath, URL } from 'node:url';
import type { Plugin } from 'vite';

// The built app's stylesheet loads without blocking the first paint (media="print" until
// src/main.tsx switches it on, before React renders): index.html's inline styles draw the
// loading shell meanwhile. A stylesheet link would otherwise hold that paint back until it arrives.
function stylesheetAfterFirstPaint(): Plugin {
  return {
    name: 'kestrel-stylesheet-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => {
        const out = html.replace(/<link rel="stylesheet"( crossorigin)? href="([^"]+\.css)">/g, '<link rel="stylesheet"$1 href="$2" media="print" data-app-css>');
        if (out === html) throw new Error('index.html: no stylesheet link to load after the first paint');
        return out;
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), stylesheetAfterFirstPaint()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true } },
  },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 600 },
  test: {
    environment: 'jsdom',
    globals: false,
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // Rendering a whole screen in jsdom takes 3-4 s for the largest tests
    // on a 2-core machine; 5 s (the default) failed them whenever the
    // machine was busy. A hung test still fails, after 30 s.
    testTimeout: 30_000,
  },
});
