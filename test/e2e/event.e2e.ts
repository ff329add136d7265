/**
 * Club events (issue 70) end to end in Chromium, on the real event server (PGlite in a temporary
 * folder, a free port, serving the built app): a director creates an event; two tables join by
 * code (one by its QR address, one typing it) in browser contexts of their own and play session 1,
 * one hand scored from its tiles; a second phone at table 1 corrects a hand and both phones show
 * it; one table goes offline, keeps its hands in its queue and sends
 * them when it is back (a reload offline keeps them); the standings page ranks the players as the
 * sheets say and follows a new hand live; the director downloads the EMA results CSV; wrong claims
 * are flagged on the table's sheet and in the referee list (the photo only when one was sent) and
 * resolved; the JSON backup is imported as a new event with the same standings. Phone size
 * (390x844); screenshots in test/artifacts.
 *
 *   npx tsx --test test/e2e/event.e2e.ts       (E2E_SKIP_BUILD=1 to reuse dist/)
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { ARTIFACTS, FIXTURES, ROOT, build, freePort, launch } from './harness.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';

let server: RunningServer;
let browser: Browser;
let dataDir: string;

before(async () => {
  build();
  dataDir = mkdtempSync(join(tmpdir(), 'mj-event-'));
  server = await startServer({ dataDir, port: await freePort(), host: '127.0.0.1', staticDir: resolve(ROOT, 'dist') });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, locale: 'en-GB', acceptDownloads: true };

async function phone(): Promise<{ ctx: BrowserContext; page: Page; errors: string[]; external: string[]; api: string[] }> {
  const ctx = await browser.newContext(PHONE);
  const page = await ctx.newPage();
  const errors: string[] = [];
  const external: string[] = [];
  const api: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  ctx.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(server.url) && !u.startsWith('data:') && !u.startsWith('blob:')) external.push(u);
    if (u.startsWith(`${server.url}/api/`)) api.push(`${r.method()} ${u.slice(server.url.length)}`);
  });
  return { ctx, page, errors, external, api };
}

const shot = (page: Page, name: string) => page.screenshot({ path: resolve(ARTIFACTS, `event-${name}.png`), fullPage: true });

/** Type a hand into the open sheet: a win (`by` null: self-drawn) or a draw. */
async function typeHand(page: Page, n: number, win: { winner: string; by: string | null; points: number }) {
  await page.getByRole('button', { name: 'Type in a hand' }).click();
  const form = page.getByRole('form', { name: `Hand ${n}` });
  await form.getByLabel('Winner').selectOption(win.winner);
  if (win.by) await form.getByLabel('Discarded by').selectOption(win.by);
  else await form.getByLabel('Self-drawn').check();
  await form.getByLabel('Points').fill(String(win.points));
  await form.getByRole('button', { name: 'Add to sheet' }).click();
  await page.getByTestId(`hand-${n}`).waitFor();
}

const syncStatus = (page: Page) => page.getByTestId('sync-status');
const sheetNumbers = async (page: Page, id: 'total' | 'table-points') =>
  Promise.all([0, 1, 2, 3].map(async (p) => Number((await page.getByTestId(`${id}-${p}`).textContent())!.replace('−', '-'))));

test('a director, two tables and the standings: join by code, play a session, offline and back, EMA CSV (phone size)', async () => {
  const director = await phone();
  const d = director.page;

  // ---- the director creates the event, with the seating of both sessions
  await d.goto(`${server.url}/#/event`);
  await d.getByRole('heading', { name: 'Club event' }).waitFor();
  // a wrong player count is named before anything is sent
  await d.getByLabel('Event name').fill('Club night');
  await d.getByTestId('event-players').fill('Ann, Bo, Cy, Di, Eve, Fay, Gus');
  await d.getByRole('spinbutton', { name: 'Sessions' }).fill('2');
  await d.getByRole('spinbutton', { name: 'Tables' }).fill('2');
  await d.getByRole('button', { name: 'Create event' }).click();
  assert.match((await d.getByTestId('create-error').textContent()) ?? '', /7 players do not fill 2 tables of 4/);
  await d.getByTestId('event-players').fill('Ann\nBo\nCy\nDi\nEve\nFay\nGus\nHal');
  await d.getByLabel('Seating (optional)').fill([
    'session,table,A,B,C,D',
    '1,1,Ann,Bo,Cy,Di', '1,2,Eve,Fay,Gus,Hal',
    '2,1,Ann,Eve,Cy,Gus', '2,2,Bo,Fay,Di,Hal',
  ].join('\n'));
  await shot(d, '1-create');
  await d.getByRole('button', { name: 'Create event' }).click();
  await d.getByTestId('table-1-1').waitFor();
  await d.locator('[data-testid="table-1-1"] img').waitFor();
  const eventId = decodeURIComponent(/#\/event\/([^/]+)$/.exec(d.url())![1]);
  const code1 = (await d.getByTestId('table-1-1').getByTestId('table-code').textContent())!;
  const code2 = (await d.getByTestId('table-1-2').getByTestId('table-code').textContent())!;
  assert.match(code1, /^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  assert.match(await d.getByTestId('table-1-1').textContent() ?? '', /Ann · Bo · Cy · Di/);
  await shot(d, '2-director');
  // the director stays signed in over a reload (the key is in IndexedDB)
  await d.reload();
  await d.getByTestId('table-1-2').getByText(code2).waitFor();

  // ---- table 1 joins by its QR address, table 2 types its code (after a wrong one)
  const t1 = await phone();
  await t1.page.goto(`${server.url}/#/join/${code1}`);
  await t1.page.waitForURL(/#\/table$/);
  await syncStatus(t1.page).getByText('All sent').waitFor();
  assert.match((await t1.page.locator('.session-sheet caption').textContent()) ?? '', /Club night · 1 · 1/);
  assert.deepEqual(await t1.page.locator('.session-sheet thead th.num').allTextContents(), ['Ann', 'Bo', 'Cy', 'Di']);

  const t2 = await phone();
  await t2.page.goto(`${server.url}/#/table`);
  // a sheet typed before joining stays on the phone: nothing goes to the server
  await t2.page.getByRole('button', { name: 'Start table' }).waitFor();
  for (const [i, name] of ['Pia', 'Quin', 'Rob', 'Sam'].entries()) await t2.page.getByLabel(new RegExp(`^Player ${i + 1} `)).fill(name);
  await t2.page.getByRole('button', { name: 'Start table' }).click();
  await typeHand(t2.page, 1, { winner: 'Rob', by: 'Sam', points: 12 });
  await t2.page.waitForTimeout(500);
  assert.equal(t2.api.length, 0, `no request to the event server before the table joins: ${t2.api.join(', ')}`);
  await t2.page.getByRole('button', { name: 'Join event' }).click();
  await t2.page.getByText('The sheet on this phone (1 hand) will be replaced').waitFor();
  await t2.page.getByLabel('Table code').fill('AAAA-AAAA');
  await t2.page.getByRole('button', { name: 'Join', exact: true }).click();
  await t2.page.getByTestId('join-error').getByText('No table has this code').waitFor();
  await shot(t2.page, '2b-join-wrong-code');
  await t2.page.getByLabel('Table code').fill(code2.toLowerCase());
  await t2.page.getByRole('button', { name: 'Join', exact: true }).click();
  await syncStatus(t2.page).getByText('All sent').waitFor();
  assert.deepEqual(await t2.page.locator('.session-sheet thead th.num').allTextContents(), ['Eve', 'Fay', 'Gus', 'Hal']);
  assert.equal(await t2.page.locator('.session-hand').count(), 0);
  // the sheet from before joining can still be saved, and was never sent
  const [own] = await Promise.all([t2.page.waitForEvent('download'), t2.page.getByRole('button', { name: 'Save the sheet from before joining (1 hand)' }).click()]);
  assert.deepEqual(JSON.parse(readFileSync((await own.path())!, 'utf8')).players, ['Pia', 'Quin', 'Rob', 'Sam']);
  assert.ok(t2.api.every((r) => !r.includes('/ops')), 'the sheet from before joining is not sent');

  // ---- table 1: two typed hands, then one scored from its tiles
  await typeHand(t1.page, 1, { winner: 'Ann', by: 'Bo', points: 16 });
  await typeHand(t1.page, 2, { winner: 'Cy', by: null, points: 8 });
  await syncStatus(t1.page).getByText('All sent').waitFor();
  // typed hands: the server can only check them against the rules (no tiles to score)
  await t1.page.getByTestId('hand-2').getByTestId('hand-check').getByText('rules checked').waitFor();

  // table 1 sends its hands' photos to the referee
  await t1.page.getByLabel('Send hand photos to the referee').check();
  await t1.page.getByRole('link', { name: 'Score a hand' }).click();
  await t1.page.getByRole('button', { name: 'Enter the tiles by hand' }).click();
  await t1.page.getByLabel('Type or paste a hand').fill('123456789m123p55p');
  await t1.page.getByRole('button', { name: 'Use this hand' }).click();
  await t1.page.getByRole('button', { name: 'Next' }).click();
  await t1.page.getByRole('heading', { name: 'Confirm the sets' }).waitFor();
  await t1.page.getByRole('button', { name: 'Next' }).click();
  await t1.page.getByRole('heading', { name: 'How did the hand win?' }).waitFor();
  // hand 3: Cy is East (the deal passed twice), and wins self-drawn
  await t1.page.getByRole('group', { name: 'Your seat wind' }).getByRole('button', { name: /^East · / }).click();
  await t1.page.getByRole('button', { name: 'Self-drawn' }).click();
  await t1.page.getByRole('button', { name: 'Next' }).click();
  await t1.page.getByRole('heading', { name: 'Score' }).waitFor();
  // The work gets a photo as the camera step gives it one (a Blob in the scanner's IndexedDB
  // under the work's photo key); recognising a real photo is the business of app.e2e.ts.
  const handJpeg = await sharp(resolve(FIXTURES, 'hand-a.jpg')).jpeg({ quality: 85 }).toBuffer();
  await t1.page.evaluate(async (bytes) => {
    const blob = new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
    await new Promise<void>((done, fail) => {
      const open = indexedDB.open('mahjong-scanner');
      open.onerror = () => fail(open.error);
      open.onsuccess = () => {
        const tx = open.result.transaction('work', 'readwrite');
        tx.objectStore('work').put(blob, 'photo:e2e-hand-photo');
        tx.oncomplete = () => { open.result.close(); done(); };
        tx.onerror = () => fail(tx.error);
      };
    });
    type Work = { source: string; photo: unknown };
    const store = (window as unknown as { __mjStore: { get(): { history: { present: Work } }; replace(s: unknown): void } }).__mjStore;
    const { history } = store.get();
    store.replace({ history: { ...history, present: { ...history.present, source: 'photo', photo: { key: 'e2e-hand-photo', width: 1280, height: 960, name: 'hand-a.jpg' } } } });
  }, [...handJpeg]);
  await t1.page.getByRole('button', { name: /^Add to the score sheet: hand 3, won by / }).click();
  await t1.page.getByText('Added as hand 3 on the score sheet.').waitFor();
  await t1.page.getByRole('link', { name: 'Table' }).click();
  await t1.page.getByTestId('hand-3').waitFor();
  await syncStatus(t1.page).getByText('All sent').waitFor();
  // the server scored hand 3 from its tiles and agrees with the phone
  await t1.page.getByTestId('hand-3').getByTestId('hand-check').getByText('✓ checked').waitFor();
  await shot(t1.page, '3-table1');

  // ---- a second phone at table 1 joins, gets the same sheet, and corrects hand 1; both converge
  const t1b = await phone();
  await t1b.page.goto(`${server.url}/#/join/${code1.toLowerCase()}`);
  await t1b.page.waitForURL(/#\/table$/);
  await t1b.page.getByTestId('hand-3').waitFor();
  assert.deepEqual(await sheetNumbers(t1b.page, 'total'), await sheetNumbers(t1.page, 'total'));
  await t1b.page.getByRole('button', { name: 'Edit hand 1' }).click();
  await t1b.page.getByRole('form', { name: 'Edit hand 1' }).getByLabel('Points').fill('24');
  await t1b.page.getByRole('form', { name: 'Edit hand 1' }).getByRole('button', { name: 'Save' }).click();
  await syncStatus(t1b.page).getByText('All sent').waitFor();
  // the first phone reads the sheet again within seconds and shows the correction
  await t1.page.getByTestId('hand-1').getByText('Ann wins 24 on Bo\'s discard').waitFor({ timeout: 20_000 });
  assert.deepEqual(await sheetNumbers(t1.page, 'total'), await sheetNumbers(t1b.page, 'total'));
  await shot(t1b.page, '3b-table1-second-phone');

  // ---- table 2 loses the network, plays on, reloads (the app from its service worker), and sends
  // everything when it is back
  await t2.page.evaluate(async () => { await navigator.serviceWorker.ready; });
  await t2.page.waitForFunction(async () => {
    for (const k of await caches.keys()) {
      const reqs = await (await caches.open(k)).keys();
      if (reqs.some((r) => r.url.endsWith('.wasm'))) return true;
    }
    return false;
  }, null, { timeout: 90_000, polling: 250 });
  // offline as a phone is: every request of the context fails, the service worker's too (the
  // offline emulation alone does not hold back a request the service worker forwards), and the
  // page knows it is offline before a hand is typed
  await t2.ctx.route('**/api/**', (route) => route.abort('internetdisconnected'));
  await t2.ctx.setOffline(true);
  await t2.page.waitForFunction(() => navigator.onLine === false);
  await typeHand(t2.page, 1, { winner: 'Hal', by: 'Gus', points: 8 });
  await typeHand(t2.page, 2, { winner: 'Fay', by: null, points: 10 });
  await syncStatus(t2.page).getByText('Offline: 2 changes waiting, sent when the network is back').waitFor();
  await t2.page.reload();
  await t2.page.getByTestId('hand-2').getByTestId('hand-check').getByText('not sent yet').waitFor();
  await syncStatus(t2.page).getByText('Offline: 2 changes waiting, sent when the network is back').waitFor();
  await shot(t2.page, '4-table2-offline');
  let standings = await (await fetch(`${server.url}/api/events/${eventId}/standings`)).json() as { players: { name: string; score: number }[] };
  assert.equal(standings.players.find((p) => p.name === 'Fay')?.score ?? 0, 0, 'nothing of table 2 reached the server while offline');
  await t2.ctx.unroute('**/api/**');
  await t2.ctx.setOffline(false);
  await syncStatus(t2.page).getByText('All sent').waitFor({ timeout: 30_000 });
  // online again, a reload shows the joined sheet as the server has it
  await t2.page.reload();
  await t2.page.getByTestId('hand-2').waitFor();
  await syncStatus(t2.page).getByText('All sent').waitFor();
  await shot(t2.page, '5-table2-back');

  // ---- the standings: ranked by table points, then score, as the two sheets say
  const expected: { name: string; tp: number; score: number }[] = [];
  for (const t of [t1, t2]) {
    const names = await t.page.locator('.session-sheet thead th.num').allTextContents();
    const totals = await sheetNumbers(t.page, 'total');
    const tps = await sheetNumbers(t.page, 'table-points');
    names.forEach((name, i) => expected.push({ name, tp: tps[i], score: totals[i] }));
  }
  expected.sort((a, b) => b.tp - a.tp || b.score - a.score);
  const standingsPage = await phone();
  const s = standingsPage.page;
  await s.goto(`${server.url}/#/event/${encodeURIComponent(eventId)}/standings`);
  await s.getByTestId('standings').waitFor();
  await s.getByTestId('standings-mode').getByText('Live').waitFor();
  const rows = async () => (await s.getByTestId('standing').allInnerTexts()).map((r) => r.split('\t').map((c) => c.trim()));
  const names = async () => (await rows()).map((r) => r[1]);
  assert.deepEqual(await names(), expected.map((e) => e.name));
  for (const [i, r] of (await rows()).entries()) {
    assert.equal(Number(r.at(-1)!.replace('−', '-')), expected[i].score, `${r[1]}'s score`);
    assert.equal(Number(r.at(-2)), expected[i].tp, `${r[1]}'s table points`);
  }
  // live: a hand typed at table 2 reaches the open standings page without a reload
  await typeHand(t2.page, 3, { winner: 'Gus', by: 'Fay', points: 40 });
  await syncStatus(t2.page).getByText('All sent').waitFor();
  // Gus wins 8 + 8 + 48 = 64 and moves to first place at his table (4 table points)
  const gusTablePoints = async () => (await rows()).find((r) => r[1] === 'Gus')!.at(-2);
  for (const end = Date.now() + 15_000; (await gusTablePoints()) !== '4';) {
    assert.ok(Date.now() < end, 'the standings page did not follow the new hand');
    await s.waitForTimeout(200);
  }
  await shot(s, '6-standings');
  // in another language the page follows at once (the strings load with the page)
  await s.locator('.lang select').selectOption('pl');
  await s.getByRole('heading', { name: 'Club night: Klasyfikacja' }).waitFor();
  await t2.page.locator('.lang select').selectOption('zh');
  await syncStatus(t2.page).getByText('全部已发送').waitFor();
  await shot(t2.page, '6b-table2-zh');
  await t2.page.locator('.lang select').selectOption('en');
  await s.locator('.lang select').selectOption('en');
  standings = await (await fetch(`${server.url}/api/events/${eventId}/standings`)).json() as typeof standings;

  // ---- the director downloads the EMA results CSV
  const [download] = await Promise.all([d.waitForEvent('download'), d.getByRole('button', { name: 'EMA results CSV' }).click()]);
  const csv = readFileSync((await download.path())!, 'utf8').trim().split(/\r?\n/).map((l) => l.split(','));
  assert.deepEqual(csv[0].slice(0, 6), ['Rank', 'Name', 'EMA number', 'Country', 'Table points', 'Score']);
  assert.deepEqual(csv.slice(1).map((r) => r[1]), standings.players.map((p) => p.name));
  assert.equal(csv.find((r) => r[1] === 'Gus')![4], '4');
  assert.deepEqual(csv.slice(1).map((r) => Number(r[5])), standings.players.map((p) => p.score));
  await d.getByText(/Downloaded club-night-ema\.csv/).waitFor();
  await shot(d, '7-director-export');

  // ---- the referee: a phone claims 2 points more than hand 3's tiles give (sent here straight to
  // the API with a token of its own, as a wrong or tampered phone would); the server flags it
  const api = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init).then(async (r) => ({ status: r.status, body: await r.json() }));
  const joined = await api('/api/join', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: code1 }) });
  const auth = { authorization: `Bearer ${joined.body.token}`, 'content-type': 'application/json' };
  const sheet1 = (await api(`/api/events/${eventId}/tables/1/1`, { headers: auth })).body.sheet;
  const scored = sheet1.hands[2].hand;
  // a second wrong claim comes with the photo of the hand (a table that turned photos on)
  const jpeg = await sharp(resolve(FIXTURES, 'hand-a.jpg')).resize(320).jpeg({ quality: 70 }).toBuffer();
  const photo = `data:image/jpeg;base64,${jpeg.toString('base64')}`;
  const sent = await api(`/api/events/${eventId}/tables/1/1/ops`, {
    method: 'POST', headers: auth, body: JSON.stringify({ ops: [
      { opId: 'e2e-op-flag-0001', kind: 'put', handId: 'e2e-hand-flag-01', at: Date.now(), hand: { ...scored, points: scored.points + 2 } },
      { opId: 'e2e-op-flag-0002', kind: 'put', handId: 'e2e-hand-flag-02', at: Date.now() + 1, hand: { ...scored, points: scored.points + 4 }, photo },
    ] }),
  });
  assert.equal(sent.status, 200);
  // table 1's phone gets the hands with its next read of the sheet, marked for the referee
  await t1.page.getByTestId('hand-4').getByTestId('hand-check').getByText(`flagged for the referee (server: ${scored.points})`).waitFor({ timeout: 20_000 });
  await t1.page.getByTestId('hand-5').getByTestId('hand-check').getByText(`flagged for the referee (server: ${scored.points})`).waitFor();
  await shot(t1.page, '8-table1-flagged');
  await d.getByRole('button', { name: 'Refresh' }).click();
  const flagA = d.getByTestId('flag').filter({ hasText: `Table's reading: ${scored.points + 2}` });
  const flagB = d.getByTestId('flag').filter({ hasText: `Table's reading: ${scored.points + 4}` });
  await flagA.getByText(`Server's reading: ${scored.points}`).waitFor();
  await flagB.getByText(`Server's reading: ${scored.points}`).waitFor();
  assert.equal(await flagA.locator('img').count(), 0, 'no photo: the table did not send one');
  await flagB.getByRole('img', { name: 'Photo sent by the table' }).waitFor();
  assert.ok(await flagB.getByRole('img').evaluate((img) => (img as HTMLImageElement).naturalWidth === 320), 'the photo shows');
  await shot(d, '9-referee');
  await flagA.getByRole('button', { name: "Use the server's reading" }).click();
  await flagA.getByText("Resolved: server's reading").waitFor();
  await flagB.getByRole('button', { name: "Use the table's reading" }).click();
  await flagB.getByText("Resolved: table's reading").waitFor();

  // ---- the director downloads the JSON backup and imports it as a new event with the same standings
  const [backupFile] = await Promise.all([d.waitForEvent('download'), d.getByRole('button', { name: 'JSON backup' }).click()]);
  const backup = JSON.parse(readFileSync((await backupFile.path())!, 'utf8')) as { format: string; sheets: unknown[] };
  assert.equal(backup.format, 'mahjong-event-backup');
  // the photos table 1 sent: hand 3 from the phone (scaled to 1280 px, JPEG), and the wrong claim's
  const photos = (backup as unknown as { sheets: { session: number; table: number; hands: { handId: string; photo?: string }[] }[] }).sheets
    .find((x) => x.session === 1 && x.table === 1)!.hands.filter((h) => h.photo);
  assert.equal(photos.length, 2);
  const fromPhone = photos.find((h) => h.handId === sheet1.hands[2].handId)!;
  assert.match(fromPhone.photo!, /^data:image\/jpeg;base64,/);
  const sent3 = await sharp(Buffer.from(fromPhone.photo!.split(',')[1], 'base64')).metadata();
  assert.deepEqual([sent3.width, sent3.height], [1280, 960]);
  // the other tables sent none
  assert.equal((backup as unknown as { sheets: { table: number; hands: { photo?: string }[] }[] }).sheets.filter((x) => x.table === 2).flatMap((x) => x.hands).filter((h) => h.photo).length, 0);
  const before = await (await fetch(`${server.url}/api/events/${eventId}/standings`)).json() as { players: unknown[] };
  await d.goto(`${server.url}/#/event`);
  await d.getByTestId('event-import').setInputFiles({ name: 'backup.json', mimeType: 'application/json', buffer: Buffer.from('{"format": "something else"}') });
  await d.getByRole('alert').getByText(/This file cannot be imported/).waitFor();
  await d.getByTestId('event-import').setInputFiles((await backupFile.path())!);
  await d.waitForURL((u) => /#\/event\/ev_/.test(u.hash) && !u.hash.includes(eventId));
  const copyId = decodeURIComponent(/#\/event\/([^/]+)$/.exec(d.url())![1]);
  await d.getByText("Resolved: server's reading").waitFor();
  await d.getByText("Resolved: table's reading").waitFor();
  const copy = await (await fetch(`${server.url}/api/events/${copyId}/standings`)).json() as { players: unknown[] };
  assert.deepEqual(copy.players, before.players);
  await d.goto(`${server.url}/#/event`);
  await d.locator('.event-list li').nth(1).waitFor();
  assert.equal(await d.locator('.event-list li').count(), 2, 'both events are directed from this device');

  for (const t of [director, t1, t1b, t2, standingsPage]) {
    assert.deepEqual(t.errors, [], 'no page errors');
    assert.deepEqual(t.external, [], 'nothing leaves the origin');
    await t.ctx.close();
  }
});
