/**
 * `npm run bench:app`: JavaScript shipped (gzipped) and load times in Chromium.
 *   - initial JS: what index.html loads before the first paint;
 *   - all JS: every .js in dist, including lazy chunks and the recognition worker
 *     (which bundles onnxruntime-web's JS), excluding the ORT wasm and the model;
 *   - first load (cold, online) and repeat load (offline, from the service worker).
 * With --json the last line is
 * {"initial_js_gz","app_js_gz","worker_js_gz","all_js_gz","first_load_ms","repeat_load_offline_ms"}.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, build, launch, serve } from './harness.ts';

const json = process.argv.includes('--json');
build();
const dist = resolve(ROOT, 'dist');
const gz = (f: string) => gzipSync(readFileSync(f), { level: 9 }).length;
const jsFiles = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js')).map((f) => join(dist, 'assets', f));
const allJs = jsFiles.reduce((s, f) => s + gz(f), 0);
// The recognition worker is nearly all onnxruntime-web's own JS (the runtime that loads its wasm).
const workerJs = jsFiles.filter((f) => /[\\/]worker-[^/\\]+\.js$/.test(f)).reduce((s, f) => s + gz(f), 0);

// Initial JS: the entry and its static imports.
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)![1];
const seen = new Set<string>();
const walk = (rel: string) => {
  if (seen.has(rel)) return;
  seen.add(rel);
  const src = readFileSync(join(dist, rel), 'utf8');
  for (const m of src.matchAll(/(?:import|from)\s*["']\.\/([^"']+\.js)["']/g)) walk(`assets/${m[1]}`);
};
walk(entry);
const initialJs = [...seen].reduce((s, f) => s + gz(join(dist, f)), 0);

const server = await serve();
const browser = await launch();
const times = { first: [] as number[], repeat: [] as number[] };
try {
  for (let i = 0; i < 3; i++) {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await ctx.newPage();
    let t = performance.now();
    await page.goto(server.url);
    await page.getByRole('heading', { level: 2 }).first().waitFor();
    times.first.push(performance.now() - t);
    await page.evaluate(async () => { await navigator.serviceWorker.ready; });
    await page.waitForFunction(async () => {
      for (const k of await caches.keys()) if ((await (await caches.open(k)).keys()).some((r) => r.url.endsWith('.wasm'))) return true;
      return false;
    }, null, { timeout: 120_000, polling: 250 });
    await ctx.setOffline(true);
    t = performance.now();
    await page.reload();
    await page.getByRole('heading', { level: 2 }).first().waitFor();
    times.repeat.push(performance.now() - t);
    await ctx.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
const out = {
  initial_js_gz: initialJs,
  app_js_gz: allJs - workerJs,
  worker_js_gz: workerJs,
  all_js_gz: allJs,
  first_load_ms: Math.round(median(times.first)),
  repeat_load_offline_ms: Math.round(median(times.repeat)),
};
const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
console.log(`JS gzipped: initial ${kb(initialJs)}; app incl. lazy chunks ${kb(allJs - workerJs)}; recognition worker (onnxruntime-web JS + vision) ${kb(workerJs)}; all ${kb(allJs)} in ${jsFiles.length} files`);
console.log(`first load ${out.first_load_ms} ms (median of 3), repeat load offline ${out.repeat_load_offline_ms} ms`);
if (json) console.log(JSON.stringify(out));
