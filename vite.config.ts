import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { createReadStream, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * onnxruntime-web loads its wasm at run time and must never reach a CDN. In the
 * build, the worker bundle's `new URL('ort-wasm-simd-threaded.asyncify.wasm',
 * import.meta.url)` makes Vite emit the wasm as a hashed same-origin asset. In dev,
 * dependency pre-bundling breaks that URL, so the dev server serves the files at
 * `/ort/` and the app passes that path to the worker as `wasmPaths`.
 */
const ORT_DIR = resolve('node_modules/onnxruntime-web/dist');
const ORT_FILES = [
  'ort-wasm-simd-threaded.mjs',
  'ort-wasm-simd-threaded.wasm',
  'ort-wasm-simd-threaded.jsep.mjs',
  'ort-wasm-simd-threaded.jsep.wasm',
  'ort-wasm-simd-threaded.asyncify.mjs',
  'ort-wasm-simd-threaded.asyncify.wasm',
];
/** The model files, served from `model/` (the repo folder) at `<base>model/`. */
const MODEL_DIR = resolve('model');
const MODEL_EXT = /\.(onnx|json|txt)$/;

function selfHostedAssets(): Plugin {
  const types: Record<string, string> = {
    '.wasm': 'application/wasm', '.mjs': 'text/javascript', '.onnx': 'application/octet-stream',
    '.json': 'application/json', '.txt': 'text/plain',
  };
  const serve = (dir: string, file: string, res: import('node:http').ServerResponse) => {
    const path = join(dir, file);
    if (!existsSync(path) || !statSync(path).isFile()) return false;
    const ext = file.slice(file.lastIndexOf('.'));
    res.setHeader('Content-Type', types[ext] ?? 'application/octet-stream');
    // ORT's thread Workers start from these files: an isolated page takes them only with these headers
    for (const [k, v] of Object.entries(ISOLATION_HEADERS)) res.setHeader(k, v);
    createReadStream(path).pipe(res);
    return true;
  };
  return {
    name: 'mahjong-self-hosted-assets',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = (req.url ?? '').split('?')[0];
        const ort = /\/ort\/([\w.-]+)$/.exec(url);
        if (ort && ORT_FILES.includes(ort[1]) && serve(ORT_DIR, ort[1], res)) return;
        const model = /\/model\/([\w.-]+)$/.exec(url);
        if (model && MODEL_EXT.test(model[1]) && serve(MODEL_DIR, model[1], res)) return;
        next();
      });
    },
    generateBundle() {
      if (existsSync(MODEL_DIR)) {
        for (const f of readdirSafe(MODEL_DIR)) {
          if (MODEL_EXT.test(f)) this.emitFile({ type: 'asset', fileName: `model/${f}`, source: readFileSync(join(MODEL_DIR, f)) });
        }
      }
    },
  };
}

/**
 * Cross-origin isolation: with these headers the page may use SharedArrayBuffer, so
 * onnxruntime-web runs the models on several wasm threads (runtime.ts: up to 4; on this
 * project's 2-core machine two threads take a 12 MP photo from about 390 to 280 ms in Node).
 * The app loads nothing from other origins, so `require-corp` blocks nothing. A static host
 * serving the build must send the same two headers (README); without them the app still works,
 * on one thread.
 */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export default defineConfig({
  base: './',
  plugins: [
    react(),
    selfHostedAssets(),
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false,
      includeAssets: ['icon.svg'],
      manifest: {
        name: 'Mahjong Scanner (MCR)',
        short_name: 'MJ Scanner',
        description: 'Photograph a finished Mahjong hand and score it under the Chinese Official rules, offline.',
        theme_color: '#14532d',
        background_color: '#f6f3ea',
        display: 'standalone',
        start_url: './',
        scope: './',
        icons: [
          { src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
          { src: 'icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png' },
        ],
      },
      workbox: {
        // The app shell, the worker, the ORT wasm and the model are all precached, so
        // recognition works offline after the first visit.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,wasm}', 'model/*.{onnx,json,txt}'],
        maximumFileSizeToCacheInBytes: 40 * 1024 * 1024,
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/model\//, /\.(onnx|wasm)$/],
      },
    }),
  ],
  resolve: {
    // In the browser, the WebGPU + wasm build of onnxruntime-web (no WebGL backend): about
    // 40 kB of JavaScript gzipped instead of 113 kB. Node (CLI, tests) keeps the package's node entry.
    alias: [{ find: /^onnxruntime-web$/, replacement: 'onnxruntime-web/webgpu' }],
  },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // zod is only used by the lazy score-sheet and share chunks; keep it out of the
        // chunk the entry loads, or every first visit pays for it.
        advancedChunks: {
          groups: [
            // zod/mini (the sheet, share links, club event schemas) with the zod core it pulls in:
            // the first load needs only these, so classic zod's own API (the tile-set profile's,
            // 11 kB) goes to a chunk of its own (first-load JS 199.0 -> 189.9 kB gzipped, issue 70)
            { name: 'zod-mini', test: /node_modules[\\/]zod[\\/](v4[\\/])?mini[\\/]/ },
            { name: 'zod', test: /node_modules[\\/]zod/ },
            { name: 'sheet', test: /src[\\/]engine[\\/]sheet\.ts/ },
          ],
        },
      },
    },
  },
  server: {
    headers: ISOLATION_HEADERS,
  },
  preview: {
    host: '127.0.0.1',
    headers: ISOLATION_HEADERS,
  },
});
