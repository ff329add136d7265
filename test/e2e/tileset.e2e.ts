/**
 * "Your tile set" (issue 69) end to end in Chromium: a scored hand teaches the device's profile,
 * even when the player leaves the score at once (the hand is queued in IndexedDB, and taught after
 * a reload); the page shows its examples per kind with their crops, removes one, exports it as a file, resets,
 * imports the file again, keeps it over a reload, and turns learning off; nothing leaves the origin.
 *
 *   npx tsx --test test/e2e/tileset.e2e.ts       (E2E_SKIP_BUILD=1 to reuse dist/)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, FIXTURES, appUnderTest } from './harness.ts';
import { parseProfile } from '../../src/vision/profile/format.ts';

type Box = [number, number, number, number];
interface Label { tiles: { code: string; box: Box }[] }
interface StoreTile { uid: string; code: string; box?: Box }

const app = appUnderTest();

const storeTiles = (page: Page): Promise<StoreTile[]> =>
  page.evaluate(() => (window as unknown as { __mjStore: { get(): { history: { present: { tiles: StoreTile[] } } } } }).__mjStore.get().history.present.tiles);

function iou(a: Box, b: Box): number {
  const x1 = Math.max(a[0], b[0]), y1 = Math.max(a[1], b[1]);
  const x2 = Math.min(a[0] + a[2], b[0] + b[2]), y2 = Math.min(a[1] + a[3], b[1] + b[3]);
  const i = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  return i / (a[2] * a[3] + b[2] * b[3] - i);
}

const summary = (page: Page) => page.getByTestId('tileset-summary').textContent();

test('a scored hand teaches the tile set; the page shows, removes, exports, resets, imports and keeps it (phone size)', async () => {
  const ctx = await app.browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, locale: 'en-GB', acceptDownloads: true });
  const page = await ctx.newPage();
  const errors: string[] = [];
  const external: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  ctx.on('request', (r) => { const u = r.url(); if (!u.startsWith(app.server.url) && !u.startsWith('data:') && !u.startsWith('blob:')) external.push(u); });
  const label = JSON.parse(readFileSync(resolve(FIXTURES, 'hand-a.json'), 'utf8')) as Label;

  // nothing learnt yet
  await page.goto(`${app.server.url}#/tileset`);
  await page.getByRole('heading', { name: 'Your tile set' }).waitFor();
  assert.match((await summary(page)) ?? '', /Nothing learnt yet/);

  // a hand from a photo, its tiles put right (the player's corrections), scored
  await page.goto(app.server.url);
  await page.getByRole('link', { name: 'Score a hand' }).click();
  await page.locator('.recog-status.ready').waitFor({ timeout: 90_000 });
  await page.getByTestId('file-input').setInputFiles(resolve(FIXTURES, 'hand-a.jpg'));
  await page.getByRole('heading', { name: 'Check the tiles' }).waitFor({ timeout: 90_000 });
  const tiles = await storeTiles(page);
  const taught = new Map<string, number>();
  /** Tiles the first scan read wrong (the player's corrections). */
  const wrongOf = (ts: StoreTile[]) => ts.filter((t) => { const lt = label.tiles.find((l) => t.box && iou(t.box, l.box) >= 0.5); return lt && lt.code !== t.code; }).length;
  const wrongBefore = wrongOf(tiles);
  for (const t of tiles) {
    const lt = label.tiles.find((l) => t.box && iou(t.box, l.box) >= 0.5);
    if (!lt) {
      // a detection that is no tile of the hand: the player removes it, and it teaches nothing
      await page.locator(`.tile-box[data-uid="${t.uid}"]`).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove this tile' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      continue;
    }
    if (lt.code !== t.code) {
      await page.locator(`.tile-box[data-uid="${t.uid}"]`).click();
      await page.getByRole('dialog').locator(`.tile-grid button.tile-key[data-code="${lt.code}"]`).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    }
    taught.set(lt.code, (taught.get(lt.code) ?? 0) + 1);
  }
  const total = [...taught.values()].reduce((a, b) => a + b, 0);
  assert.ok(total >= label.tiles.length - 1, `${total} of ${label.tiles.length} tiles found`);
  for (const heading of ['Confirm the sets', 'How did the hand win?', 'Score']) {
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: heading }).waitFor();
  }
  // reaching the score queues the hand to teach the profile (teach.ts): the player leaves the
  // score at once, even reloading the app, and the hand is learnt all the same
  assert.equal(await page.evaluate(() => (window as unknown as { __mjTeach: Promise<boolean> }).__mjTeach), true, 'the confirmed hand is queued');
  await page.reload();

  // the page: every kind with its count and crops
  await page.getByRole('link', { name: 'Your tile set' }).click();
  await page.getByRole('heading', { name: 'Your tile set' }).waitFor();
  await page.getByText(`${total} examples learnt, of ${taught.size} kinds.`).waitFor({ timeout: 60_000 });
  for (const [code, n] of taught) assert.equal(await page.getByTestId(`count-${code}`).textContent(), `${n} example${n === 1 ? '' : 's'}`);
  assert.equal(await page.locator('.tileset .crops img').count(), total);
  const natural = await page.locator('.tileset .crops img').first().evaluate((i: HTMLImageElement) => i.naturalWidth);
  assert.equal(natural, 48, 'the crop is the classifier crop itself');
  await page.screenshot({ path: resolve(ARTIFACTS, 'tileset-phone.png'), fullPage: true });

  // remove one example
  const [firstCode, firstCount] = [...taught][0]!;
  await page.locator(`li[data-kind="${firstCode}"] .crops button`).first().click();
  await page.getByText(`${total - 1} examples learnt`).waitFor();
  if (firstCount === 1) assert.equal(await page.getByTestId(`count-${firstCode}`).count(), 0);

  // export as a file
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('tileset-export').click()]);
  const file = join(mkdtempSync(join(tmpdir(), 'tileset-')), 'set.json');
  await download.saveAs(file);
  const exported = parseProfile(readFileSync(file, 'utf8'));
  assert.equal(exported.examples.length, total - 1);
  assert.ok(exported.examples.every((e) => e.crop?.startsWith('data:image/jpeg;base64,') && e.embedding.length === 512));

  // reset, then import the file (as another phone at the club would)
  await page.getByTestId('tileset-reset').click();
  await page.getByTestId('tileset-reset-confirm').click();
  await page.getByText('Nothing learnt yet').waitFor();
  await page.getByTestId('tileset-import-file').setInputFiles(file);
  await page.getByText(`${total - 1} examples imported.`).waitFor();
  await page.getByText(`${total - 1} examples learnt`).waitFor();

  // a file that is not a tile set is refused with a message
  const bad = join(mkdtempSync(join(tmpdir(), 'tileset-')), 'bad.json');
  (await import('node:fs')).writeFileSync(bad, '{"hand":"123m"}');
  await page.getByTestId('tileset-import-file').setInputFiles(bad);
  await page.getByText('That file is not a tile set exported by this app.').waitFor();

  // learning off, and everything kept over a reload
  await page.getByTestId('learning-toggle').uncheck();
  await page.reload();
  await page.getByText(`${total - 1} examples learnt`).waitFor();
  assert.equal(await page.getByTestId('learning-toggle').isChecked(), false);

  // with learning off, scoring the hand again queues nothing, so it teaches nothing
  await page.getByRole('link', { name: 'Score a hand' }).click();
  await page.getByRole('heading', { name: 'Score' }).waitFor();
  assert.equal(await page.evaluate(() => (window as unknown as { __mjTeach: Promise<boolean> }).__mjTeach), false, 'nothing is queued with learning off');
  await page.getByRole('link', { name: 'Your tile set' }).click();
  await page.getByText(`${total - 1} examples learnt`).waitFor();

  // a new photo of the set is read with the profile (in the recognition worker's read stage): the
  // taught hand reads as before or better
  await page.getByRole('link', { name: 'Score a hand' }).click();
  await page.getByRole('button', { name: 'Start over' }).click();
  await page.getByTestId('file-input').setInputFiles(resolve(FIXTURES, 'hand-a.jpg'));
  await page.getByRole('heading', { name: 'Check the tiles' }).waitFor({ timeout: 90_000 });
  const again = await storeTiles(page);
  assert.ok(again.length >= label.tiles.length - 1, `${again.length} tiles found with the profile`);
  assert.ok(wrongOf(again) <= wrongBefore, `${wrongOf(again)} tiles read wrong with the profile, ${wrongBefore} without`);

  assert.deepEqual(errors, []);
  assert.deepEqual(external, []);
  await ctx.close();
});
