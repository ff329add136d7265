/**
 * End-to-end tests in real Chromium (Debian's /usr/bin/chromium via playwright-core).
 * The file builds the app, serves it on a free localhost port and stops it at the end.
 *
 *   npm run test:e2e            (E2E_SKIP_BUILD=1 to reuse dist/)
 *
 * Screenshots go to test/artifacts/.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ARTIFACTS, FIXTURES, build, launch, serve } from './harness.ts';

type Box = [number, number, number, number];
interface Label { width: number; height: number; tiles: { code: string; box: Box; sideways?: boolean }[] }

let server: Awaited<ReturnType<typeof serve>>;
let browser: Browser;
const external: string[] = [];

before(async () => {
  build();
  server = await serve();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function newPage(viewport: { width: number; height: number }, opts: { blockSw?: boolean } = {}): Promise<{ ctx: BrowserContext; page: Page; errors: string[] }> {
  const ctx = await browser.newContext({ viewport, deviceScaleFactor: viewport.width < 500 ? 2 : 1, locale: 'en-GB', serviceWorkers: opts.blockSw ? 'block' : 'allow' });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Nothing may leave the app's own origin.
  ctx.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(server.url) && !u.startsWith('data:') && !u.startsWith('blob:')) external.push(u);
  });
  return { ctx, page, errors };
}

const shot = (page: Page, name: string) => page.screenshot({ path: resolve(ARTIFACTS, `${name}.png`), fullPage: true });

interface StoreTile { uid: string; code: string; box?: Box }
const storeTiles = (page: Page): Promise<StoreTile[]> =>
  page.evaluate(() => (window as unknown as { __mjStore: { get(): { history: { present: { tiles: StoreTile[] } } } } }).__mjStore.get().history.present.tiles);

function iou(a: Box, b: Box): number {
  const x1 = Math.max(a[0], b[0]), y1 = Math.max(a[1], b[1]);
  const x2 = Math.min(a[0] + a[2], b[0] + b[2]), y2 = Math.min(a[1] + a[3], b[1] + b[3]);
  const i = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  return i / (a[2] * a[3] + b[2] * b[3] - i);
}

async function pickInSheet(page: Page, code: string) {
  const sheet = page.getByRole('dialog');
  await sheet.locator(`button.tile-key[data-code="${code}"]`).click();
  await sheet.waitFor({ state: 'detached' });
}

/** Make the tiles on screen match the fixture's labels: correct misreads, remove false boxes, add missed tiles. */
async function matchLabels(page: Page, label: Label): Promise<{ corrected: number; added: number; removed: number }> {
  const stats = { corrected: 0, added: 0, removed: 0 };
  const tiles = await storeTiles(page);
  const used = new Set<string>();
  for (const lt of label.tiles) {
    let best: StoreTile | null = null, bestIou = 0.3;
    for (const t of tiles) {
      if (!t.box || used.has(t.uid)) continue;
      const v = iou(t.box, lt.box);
      if (v > bestIou) { best = t; bestIou = v; }
    }
    if (best) {
      used.add(best.uid);
      if (best.code !== lt.code) {
        await page.locator(`.tile-box[data-uid="${best.uid}"]`).click();
        await pickInSheet(page, lt.code);
        stats.corrected++;
      }
    } else {
      // Add a missed tile where it lies on the photo.
      await page.getByRole('button', { name: 'Add tile', exact: true }).click();
      const wrap = page.locator('.photo-wrap');
      const bb = (await wrap.boundingBox())!;
      const x = ((lt.box[0] + lt.box[2] / 2) / label.width) * bb.width;
      const y = ((lt.box[1] + lt.box[3] / 2) / label.height) * bb.height;
      await wrap.click({ position: { x, y } });
      await pickInSheet(page, lt.code);
      stats.added++;
    }
  }
  for (const t of tiles) {
    if (used.has(t.uid)) continue;
    await page.locator(`[data-uid="${t.uid}"]`).first().click();
    await page.getByRole('button', { name: 'Remove this tile' }).click();
    stats.removed++;
  }
  return stats;
}

async function setMelded(page: Page, codes: string[]) {
  const card = page.locator('.set-card').filter({ has: page.locator(`[data-tile="${codes[0]}"]`) }).filter({ has: page.locator(`[data-tile="${codes[codes.length - 1]}"]`) });
  await card.getByRole('button', { name: 'Melded', exact: true }).click();
  assert.equal(await card.getByRole('button', { name: 'Melded', exact: true }).getAttribute('aria-pressed'), 'true');
}

async function photoFlow(viewport: { width: number; height: number }, tag: string) {
  const { ctx, page, errors } = await newPage(viewport);
  const label = JSON.parse(readFileSync(resolve(FIXTURES, 'hand-a.json'), 'utf8')) as Label;
  await page.goto(server.url);
  await page.getByRole('heading', { name: 'Photograph the hand' }).waitFor();
  await shot(page, `${tag}-1-capture`);

  await page.getByTestId('file-input').setInputFiles(resolve(FIXTURES, 'hand-a.jpg'));
  await page.getByRole('heading', { name: 'Check the tiles' }).waitFor({ timeout: 60_000 });
  const notice = await page.getByTestId('notice').textContent().catch(() => '');
  const recognised = (await storeTiles(page)).length;
  await page.locator('.photo-wrap img').waitFor();

  // Misreads are corrected, false boxes removed and missed tiles added (all of them without a model).
  const stats = await matchLabels(page, label);
  const codes = (await storeTiles(page)).map((t) => t.code).sort();
  assert.deepEqual(codes, label.tiles.map((t) => t.code).sort());

  // Correct one tile through the picker: a wrong pick, undo, redo, then the right tile.
  const first = (await storeTiles(page))[0];
  await page.locator(`.tile-box[data-uid="${first.uid}"]`).click();
  await pickInSheet(page, first.code === '2z' ? '3z' : '2z');
  assert.notEqual((await storeTiles(page))[0].code, first.code);
  await page.getByText(/a finished hand|only 4|cannot|need/).first().waitFor().catch(() => undefined);
  await page.getByRole('button', { name: /Undo/ }).click();
  assert.equal((await storeTiles(page))[0].code, first.code);
  await page.getByRole('button', { name: /Redo/ }).click();
  assert.notEqual((await storeTiles(page))[0].code, first.code);
  await page.locator(`.tile-box[data-uid="${first.uid}"]`).click();
  await pickInSheet(page, first.code);
  assert.equal((await storeTiles(page))[0].code, first.code);
  await page.getByText('The tile count is right.').waitFor();
  await shot(page, `${tag}-2-review`);

  // Reload mid-way: the photo, the tiles and the undo history survive.
  await page.reload();
  await page.getByRole('heading', { name: 'Check the tiles' }).waitFor();
  await page.locator('.photo-wrap img').waitFor();
  assert.deepEqual((await storeTiles(page)).map((t) => t.code).sort(), codes);
  assert.equal(await page.locator('.tile-box').count(), label.tiles.length);
  assert.equal(await page.getByRole('button', { name: /Undo/ }).isEnabled(), true);

  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('heading', { name: 'Confirm the sets' }).waitFor();
  await setMelded(page, ['3p', '5p']);
  await setMelded(page, ['6s', '6s']);
  // The winning tile: the third East.
  const eastCard = page.locator('.set-card').filter({ has: page.locator('[data-tile="1z"]') });
  await eastCard.locator('button.set-tile').last().click();
  assert.equal(await eastCard.locator('button.set-tile').last().getAttribute('aria-pressed'), 'true');
  await shot(page, `${tag}-3-sets`);

  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('heading', { name: 'How did the hand win?' }).waitFor();
  await page.getByRole('button', { name: 'Self-drawn' }).click();
  await page.getByRole('switch', { name: /Last tile of the wall/ }).click();
  await shot(page, `${tag}-4-conditions`);

  await page.reload();
  await page.getByRole('heading', { name: 'How did the hand win?' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Self-drawn' }).getAttribute('aria-pressed'), 'true');
  assert.equal(await page.getByRole('switch', { name: /Last tile of the wall/ }).getAttribute('aria-checked'), 'true');

  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('heading', { name: 'Score' }).waitFor();
  const fans = page.getByTestId('fans');
  for (const name of ['Last Tile Draw', 'Prevalent Wind', 'Seat Wind', 'Flower Tiles']) await fans.getByText(name, { exact: true }).waitFor();
  assert.match((await page.getByTestId('total').textContent()) ?? '', /13 points/);
  await page.locator('.not-counted').getByText('Self-Drawn').waitFor();
  const pay = page.getByTestId('payments');
  assert.match((await pay.locator('[data-seat="E"]').textContent()) ?? '', /\+63/);
  for (const w of ['S', 'W', 'N']) assert.match((await pay.locator(`[data-seat="${w}"]`).textContent()) ?? '', /−21/);
  await shot(page, `${tag}-5-result`);

  // Language switch: fan names come from the engine's table.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh');
  await page.getByRole('heading', { name: '得分' }).waitFor();
  await fans.getByText('妙手回春').waitFor();
  await shot(page, `${tag}-6-result-zh`);
  await page.getByRole('combobox', { name: '语言' }).selectOption('en');

  assert.deepEqual(errors, []);
  await ctx.close();
  return { recognised, notice, stats };
}

describe('scanner app', () => {
  test('photo path at desktop size', async () => {
    const r = await photoFlow({ width: 1280, height: 900 }, 'desktop');
    writeFileSync(resolve(ARTIFACTS, 'photo-desktop.json'), JSON.stringify(r, null, 2));
  });

  test('photo path at phone size (390x844)', async () => {
    const r = await photoFlow({ width: 390, height: 844 }, 'phone');
    writeFileSync(resolve(ARTIFACTS, 'photo-phone.json'), JSON.stringify(r, null, 2));
  });

  test('manual path: tile keyboard and pasted notation, no camera', async () => {
    const { ctx, page, errors } = await newPage({ width: 390, height: 844 });
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Enter the tiles by hand' }).click();
    await page.getByRole('heading', { name: 'Check the tiles' }).waitFor();
    const keyboard = page.getByRole('group', { name: 'Tile keyboard' });
    // 123m 456m 789m 55p 234s + winning 5s... type the first 13, then the winning tile.
    for (const code of ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m', '5p', '5p', '2s', '3s', '4s']) {
      await keyboard.locator(`button[data-code="${code}"]`).click();
    }
    await page.getByText('The tile count is right.').waitFor();
    // Correct one tile from the hand strip: 4s -> 1s.
    await page.locator('.hand-strip button').last().click();
    await pickInSheet(page, '1s');
    await shot(page, 'manual-1-keyboard');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Confirm the sets' }).waitFor();
    await shot(page, 'manual-2-sets');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Score' }).waitFor();
    await page.getByTestId('fans').getByText('Pure Straight').waitFor();
    await shot(page, 'manual-3-result');

    // Pasted MPSZ notation replaces the hand.
    await page.getByRole('button', { name: /Tiles/ }).click();
    await page.getByLabel('Type or paste a hand').fill('123x');
    await page.getByRole('button', { name: 'Use this hand' }).click();
    await page.locator('#notation-error').getByText(/character/).waitFor();
    await page.getByLabel('Type or paste a hand').fill('123m456p789s11122z');
    await page.getByRole('button', { name: 'Use this hand' }).click();
    assert.deepEqual((await storeTiles(page)).map((t) => t.code).join(' '), '1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 2z 2z');
    await page.getByLabel('Type or paste a hand').fill('[123p1][345s2][999s3]78mEE6m');
    await page.getByRole('button', { name: 'Use this hand' }).click();
    assert.equal((await storeTiles(page)).length, 14);
    await page.getByRole('button', { name: 'Next' }).click();
    assert.equal(await page.locator('.set-card.declared').count(), 3);
    assert.deepEqual(errors, []);
    await ctx.close();
  });

  test('bad input: non-image, 100-megapixel photo, camera denied, no camera, model failure', async () => {
    const sharp = (await import('sharp')).default;
    const big = resolve(ARTIFACTS, 'huge-100mp.jpg');
    await sharp({ create: { width: 12000, height: 8400, channels: 3, background: '#2f6b3a' } }).jpeg({ quality: 30 }).toFile(big);
    const text = resolve(ARTIFACTS, 'not-a-photo.jpg');
    writeFileSync(text, 'this is not an image\n');

    const { ctx, page } = await newPage({ width: 390, height: 844 }, { blockSw: true });
    await page.addInitScript(() => {
      const mode = sessionStorage.getItem('cam') ?? 'denied';
      MediaDevices.prototype.getUserMedia = () => Promise.reject(new DOMException('camera', mode === 'denied' ? 'NotAllowedError' : 'NotFoundError'));
    });
    await page.route('**/model/*.onnx', (r) => r.abort());
    await page.goto(server.url);
    await page.getByRole('heading', { name: 'Photograph the hand' }).waitFor();
    await page.getByText(/Tile recognition could not load/).waitFor();

    await page.getByTestId('file-input').setInputFiles(text);
    await page.getByTestId('capture-error').getByText(/is not a photo this app can read/).waitFor();
    await page.getByTestId('file-input').setInputFiles(big);
    await page.getByTestId('capture-error').getByText(/101 megapixels/).waitFor();
    await shot(page, 'bad-1-huge');
    await page.getByRole('button', { name: 'Use the camera' }).click();
    await page.getByTestId('capture-error').getByText(/Camera access was refused/).waitFor();
    await page.evaluate(() => sessionStorage.setItem('cam', 'none'));
    await page.reload();
    await page.getByRole('button', { name: 'Use the camera' }).click();
    await page.getByTestId('capture-error').getByText(/No camera was found/).waitFor();
    await shot(page, 'bad-2-camera');

    // The model cannot load: the photo still goes to review, to be filled in by hand.
    await page.getByTestId('file-input').setInputFiles(resolve(FIXTURES, 'hand-a.jpg'));
    await page.getByRole('heading', { name: 'Check the tiles' }).waitFor();
    await page.getByTestId('notice').getByText(/could not load/).waitFor();
    await shot(page, 'bad-3-model');
    // And the manual path still works.
    await page.getByRole('button', { name: 'Start over' }).click();
    await page.getByRole('button', { name: 'Enter the tiles by hand' }).click();
    await page.getByLabel('Type or paste a hand').fill('[123p1][345s2][999s3]78mEE6m');
    await page.getByRole('button', { name: 'Use this hand' }).click();
    assert.equal((await storeTiles(page)).length, 14);
    await ctx.close();
  });

  test('works offline after the first load; load times', async () => {
    const { ctx, page } = await newPage({ width: 390, height: 844 });
    const t0 = Date.now();
    await page.goto(server.url);
    await page.getByRole('heading', { name: 'Photograph the hand' }).waitFor();
    const firstLoad = Date.now() - t0;
    await page.evaluate(async () => { await navigator.serviceWorker.ready; });
    // Precaching is done when the ORT wasm (the largest file) is in the cache.
    await page.waitForFunction(async () => {
      for (const k of await caches.keys()) {
        const reqs = await (await caches.open(k)).keys();
        if (reqs.some((r) => r.url.endsWith('.wasm'))) return true;
      }
      return false;
    }, null, { timeout: 60_000, polling: 250 });
    await ctx.setOffline(true);
    const t1 = Date.now();
    await page.reload();
    await page.getByRole('heading', { name: 'Photograph the hand' }).waitFor();
    const repeatLoad = Date.now() - t1;
    await page.getByRole('button', { name: 'Enter the tiles by hand' }).click();
    await page.getByLabel('Type or paste a hand').fill('[123p1][345s2][999s3]78mEE6m');
    await page.getByRole('button', { name: 'Use this hand' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Confirm the sets' }).waitFor();
    await shot(page, 'offline-sets');
    writeFileSync(resolve(ARTIFACTS, 'load-times.json'), JSON.stringify({ firstLoadMs: firstLoad, repeatLoadOfflineMs: repeatLoad }, null, 2));
    console.log(`first load ${firstLoad} ms, repeat load offline ${repeatLoad} ms`);
    await ctx.close();
  });

  test('no request left the origin', () => {
    assert.deepEqual(external, []);
  });
});
