/**
 * `npm run bench:app`: JavaScript shipped (gzipped) and load times in Chromium.
 *   - initial JS: what index.html loads before the first paint;
 *   - all JS: every .js in dist, including lazy chunks and the recognition worker
 *     (which bundles onnxruntime-web's JS), excluding the ORT wasm and the model;
 *   - first load (cold, online) and repeat load (offline, from the service worker).
 *   - a 12-megapixel photo (the fixture hand enlarged to 4000x3000, stored on its side with EXIF
 *     orientation 6, as phones store photos) from the moment it is chosen (the file input's change
 *     event) to the review screen's heading in the page (both timed in the page): the first photo
 *     after the models are ready, and three more in the same page.
 * With --json the last line is
 * {"initial_js_gz","app_js_gz","worker_js_gz","all_js_gz","first_load_ms","repeat_load_offline_ms",
 *  "photo_first_ms","photo_later_ms"}.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, build, launch, phonePhoto, serve } from './harness.ts';

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
const times = { first: [] as number[], repeat: [] as number[], photoFirst: [] as number[], photoLater: [] as number[] };
const photo = await phonePhoto();
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
  // a photo to the review screen, timed in the page from the file input's change event
  for (let i = 0; i < 3; i++) {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await ctx.newPage();
    await page.goto(server.url);
    await page.locator('.recog-status.ready').waitFor({ timeout: 120_000 });
    // the app primes the models once they are ready (primeModels), while the player frames the photo
    await page.waitForTimeout(3000);
    for (let k = 0; k < 4; k++) {
      // (in the page: the locator's waitFor polls at up to 500 ms intervals)
      await page.evaluate(`(() => {
        const el = document.querySelector('[data-testid="file-input"]');
        window.__chosen = 0; window.__shown = 0;
        el.addEventListener('change', () => { window.__chosen = performance.now(); }, { once: true, capture: true });
        const seen = () => [...document.querySelectorAll('h2')].some((h) => h.textContent === 'Check the tiles');
        const obs = new MutationObserver(() => { if (!window.__shown && seen()) { window.__shown = performance.now(); obs.disconnect(); } });
        obs.observe(document.body, { childList: true, subtree: true, characterData: true });
      })()`);
      await page.getByTestId('file-input').setInputFiles(photo);
      await page.getByRole('heading', { name: 'Check the tiles' }).waitFor({ timeout: 60_000 });
      const ms = (await page.evaluate('window.__shown - window.__chosen')) as number;
      (k === 0 ? times.photoFirst : times.photoLater).push(ms);
      await page.getByRole('button', { name: 'Start over' }).click();
      await page.getByRole('heading', { name: 'Photograph the hand' }).waitFor();
    }
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
  photo_first_ms: Math.round(median(times.photoFirst)),
  photo_later_ms: Math.round(median(times.photoLater)),
};
const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
console.log(`JS gzipped: initial ${kb(initialJs)}; app incl. lazy chunks ${kb(allJs - workerJs)}; recognition worker (onnxruntime-web JS + vision) ${kb(workerJs)}; all ${kb(allJs)} in ${jsFiles.length} files`);
console.log(`first load ${out.first_load_ms} ms (median of 3), repeat load offline ${out.repeat_load_offline_ms} ms`);
const list = (a: number[]) => a.map((v) => v.toFixed(0)).join(', ');
console.log(`12 MP photo (EXIF orientation 6) chosen -> review screen: first after loading ${out.photo_first_ms} ms (${list(times.photoFirst)}), later ${out.photo_later_ms} ms (median of ${times.photoLater.length}: ${list(times.photoLater)})`);
if (json) console.log(JSON.stringify(out));
