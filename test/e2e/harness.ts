/**
 * Builds the app, serves it with `vite preview` on a free localhost port, and
 * launches Debian's Chromium through playwright-core. Everything stops in `close`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { after, before } from 'node:test';
import { chromium, type Browser } from 'playwright-core';

export const ROOT = resolve(import.meta.dirname, '../..');
export const ARTIFACTS = resolve(ROOT, 'test/artifacts');
export const FIXTURES = resolve(ROOT, 'test/fixtures/app');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.unref();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => res(port));
    });
  });
}

export function build(): void {
  if (process.env.E2E_SKIP_BUILD) return;
  const r = spawnSync(process.execPath, [resolve(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`vite build failed (${r.status})`);
}

export async function serve(): Promise<{ url: string; proc: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const proc = spawn(process.execPath, [resolve(ROOT, 'node_modules/vite/bin/vite.js'), 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.ok) break;
    } catch { /* not up yet */ }
    if (proc.exitCode !== null) throw new Error('vite preview exited');
    if (Date.now() > deadline) { proc.kill(); throw new Error('vite preview did not start'); }
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = () => new Promise<void>((res) => {
    if (proc.exitCode !== null) return res();
    proc.once('exit', () => res());
    proc.kill('SIGTERM');
  });
  return { url, proc, stop };
}

export async function launch(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * A 4000x3000 JPEG of the fixture hand (hand-a, 1280x960) as a phone stores a photo: the pixels on
 * their side with EXIF orientation 6 (a quarter turn clockwise shows it upright). `at` places the
 * fixture's pixels on a 4000x3000 table as they are (a hand small in the photo); without it the
 * fixture is enlarged to fill the photo. Written to a fresh temporary folder; returns its path.
 */
export async function phonePhoto(at?: readonly [number, number]): Promise<string> {
  const hand = resolve(FIXTURES, 'hand-a.jpg');
  const upright = at
    ? await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#3a5f3a' } }).composite([{ input: hand, left: at[0], top: at[1] }]).jpeg({ quality: 92 }).toBuffer()
    : await sharp(hand).resize(4000, 3000).toBuffer();
  // a second pipeline: in one, sharp turns the photo before it resizes it
  const out = resolve(mkdtempSync(join(tmpdir(), 'mj-phone-')), 'hand-a-12mp.jpg');
  await sharp(upright).rotate(-90).withMetadata({ orientation: 6 }).jpeg({ quality: 92 }).toFile(out);
  return out;
}

/** For a test file: the app built and served, and Chromium launched, before its tests; both closed
 * after them. The fields are set once the tests run. */
export function appUnderTest(): { server: Awaited<ReturnType<typeof serve>>; browser: Browser } {
  const app = {} as { server: Awaited<ReturnType<typeof serve>>; browser: Browser };
  before(async () => {
    build();
    app.server = await serve();
    app.browser = await launch();
  });
  after(async () => {
    await app.browser?.close();
    await app.server?.stop();
  });
  return app;
}
