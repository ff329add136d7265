/**
 * `npm run bench:event`: a club event under load and faults, on PGlite in a temp folder (or on
 * PostgreSQL, DATABASE_URL).
 *
 * 100 tables of 4 play 16 hands each, all at once; each table's phone sends every hand as it is
 * added (scored hands with their links, typed hands, draws; about one in eight with a wrong
 * total for the referee; some hands corrected later). Faults: requests aborted at random
 * (the phone cannot know whether the server applied them, so it retries), duplicate retries of
 * acknowledged ops, and a server restart in the middle on the same data folder.
 *
 * Prints hands per second and p50/p99 request latency, then checks that every op was applied
 * exactly once, every sheet holds exactly its 16 hands, the flags are the wrong totals, and the
 * standings equal a recomputation from the sheets by the engine. Exits 1 when a check fails.
 * The server runs in its own process (`src/server/main.ts`), as `npm run event` runs it; the
 * restart stops it (SIGTERM) and starts a new process on the same folder and port.
 * Options: --tables N (100), --hands N (16), --seed N, --no-restart. With DATABASE_URL set the
 * server runs on that PostgreSQL instead of PGlite.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { computeSheet, type SheetHand } from '../../src/engine/sheet.ts';
import type { CreateEventReply, Flag, JoinReply, Op, OpsReply, Standings, TableSheet } from '../../src/event/protocol.ts';
import { DRAW, LINKED, names, scoredWin, typedWin } from '../../test/server/fixtures.ts';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const TABLES = arg('tables', 100);
const HANDS = arg('hands', 16);
let seed = arg('seed', 20260);
/** Park–Miller, so a run can be repeated. */
const random = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
const pick = (n: number): number => Math.floor(random() * n);

const ABORT_RATE = 0.05;
const RETRY_RATE = 0.1;
const WRONG_RATE = 0.125;
const EDIT_RATE = 0.1;

interface PlannedHand {
  handId: string;
  /** What the phone finally holds. */
  hand: SheetHand;
  /** The engine's total, which the standings must count. */
  truePoints: number;
  wrong: boolean;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-event-'));
let server: ChildProcess;
let base = '';
let restarting: Promise<void> | null = null;
const latencies: number[] = [];
/** Start times of the slow requests (over 5 s), ms after the play began, and the restart's. */
const slow: number[] = [];
let playStart = 0;
let restartAt = -1;
const counts = { requests: 0, aborted: 0, failed: 0, retries: 0, duplicates: 0 };
let opSeq = 0;

async function api<T>(method: string, p: string, body?: unknown, auth?: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const json = (await res.json()) as T & { error?: { code: string; message: string } };
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${json.error?.code}: ${json.error?.message}`);
  return json;
}

/** Send one op until the server acknowledges it, as the phone's queue does. */
async function sendUntilAcked(eventId: string, table: number, token: string, op: Op): Promise<OpsReply> {
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) counts.retries++;
    if (restarting) await restarting;
    const controller = new AbortController();
    // A dropped connection: the request is cut off at a random moment, applied or not.
    if (random() < ABORT_RATE) {
      setTimeout(() => controller.abort(), pick(8));
    }
    const started = performance.now();
    counts.requests++;
    try {
      const reply = await api<OpsReply>('POST', `/api/events/${eventId}/tables/1/${table}/ops`, { ops: [op] }, token, controller.signal);
      latencies.push(performance.now() - started);
      if (performance.now() - started > 5000) slow.push(started - playStart);
      if (!reply.applied.includes(op.opId)) throw new Error(`op ${op.opId} not acknowledged`);
      return reply;
    } catch (e) {
      if (controller.signal.aborted) counts.aborted++;
      else if (e instanceof Error && / \d{3} /.test(e.message) && !/ 5\d\d /.test(e.message)) throw e; // a 4xx is a bug here
      else counts.failed++;
      await new Promise((r) => setTimeout(r, 20 + pick(80)));
    }
  }
}

function planTable(table: number): { hands: PlannedHand[]; ops: Op[] } {
  const hands: PlannedHand[] = [];
  const ops: Op[] = [];
  const t0 = 1_750_000_000_000 + table * 10;
  for (let i = 0; i < HANDS; i++) {
    const handId = `t${table}-hand-${String(i).padStart(2, '0')}`;
    const winner = pick(4);
    const discarder = (winner + 1 + pick(3)) % 4;
    const kind = random();
    let hand: SheetHand;
    let truePoints = 0;
    let wrong = false;
    if (kind < 0.1) {
      hand = DRAW;
    } else if (kind < 0.3) {
      truePoints = 8 + pick(30);
      hand = typedWin(winner, truePoints, random() < 0.3 ? null : discarder);
    } else {
      // Scored as the phone scores it: the winds of this hand's seats (003), from its tiles.
      hand = scoredWin(pick(LINKED.length), winner, { discarder, hand: i });
      truePoints = hand.kind === 'win' ? hand.points : 0;
      wrong = random() < WRONG_RATE;
      if (wrong && hand.kind === 'win') hand = { ...hand, points: truePoints + 1 + pick(6) };
    }
    const at = t0 + i * 60_000;
    ops.push({ opId: `op-${String(++opSeq).padStart(8, '0')}`, kind: 'put', handId, at, hand });
    if (random() < EDIT_RATE && hand.kind === 'win' && hand.source === 'typed') {
      // The table corrects a typed total a little later.
      truePoints += 2;
      hand = { ...hand, points: truePoints };
      ops.push({ opId: `op-${String(++opSeq).padStart(8, '0')}`, kind: 'put', handId, at: at + 30_000, hand });
    }
    hands.push({ handId, hand, truePoints, wrong });
  }
  return { hands, ops };
}

/** Start `src/server/main.ts` on the bench's folder; resolves with its address once it listens. */
function startServer(port: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [path.join('node_modules', 'tsx', 'dist', 'cli.mjs'), 'src/server/main.ts', '--no-build'], {
    env: { ...process.env, PORT: String(port), EVENT_DATA_DIR: dataDir, EVENT_JOIN_LIMIT: '1000000', DATABASE_URL: process.env.DATABASE_URL ?? '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /event server on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening: ${out}`)));
  });
}

async function stopServer(): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  await exited;
}

async function restart(): Promise<void> {
  const port = Number(new URL(base).port);
  const stopped = performance.now();
  restartAt = stopped - playStart;
  await stopServer();
  server = (await startServer(port)).child;
  console.log(`restart: the server was down for ${(performance.now() - stopped).toFixed(0)} ms`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const first = await startServer(0);
  server = first.child;
  base = first.url;
  const players = names(TABLES * 4);
  const ev = await api<CreateEventReply>('POST', '/api/events', { name: 'Bench open', rules: 'mcr', players, tables: TABLES, sessions: 1 });
  const joins = await Promise.all(ev.event.tables.map((t) => api<JoinReply>('POST', '/api/join', { code: t.code })));
  const plans = joins.map((j) => ({ join: j, ...planTable(j.table) }));
  const totalOps = plans.reduce((s, p) => s + p.ops.length, 0);
  const totalHands = TABLES * HANDS;
  let acked = 0;
  let restarted = false;

  const started = performance.now();
  playStart = started;
  await Promise.all(plans.map(async ({ join, ops }) => {
    for (const op of ops) {
      await sendUntilAcked(ev.event.id, join.table, join.token, op);
      acked++;
      if (!restarted && !process.argv.includes('--no-restart') && acked >= totalOps / 2) {
        restarted = true;
        restarting = restart().finally(() => { restarting = null; });
      }
      if (random() < RETRY_RATE) {
        // The acknowledgement was lost: the phone sends the same op again.
        counts.duplicates++;
        await sendUntilAcked(ev.event.id, join.table, join.token, op);
      }
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  if (restarting) await restarting;

  const afterRestart = slow.filter((x) => x >= restartAt).length;
  if (slow.length) console.log(`${slow.length} requests took over 5 s, ${afterRestart} of them queued behind the restart (at ${(restartAt / 1000).toFixed(1)} s)`);
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(`${TABLES} tables x ${HANDS} hands = ${totalHands} hands (${totalOps} ops) in ${seconds.toFixed(1)} s: ${(totalHands / seconds).toFixed(0)} hands/s, `
    + `request latency p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`);
  console.log(`requests ${counts.requests}: ${counts.aborted} aborted, ${counts.failed} failed while the server restarted, ${counts.retries} retries, ${counts.duplicates} duplicate sends`);

  // ---- checks ----
  const problems: string[] = [];
  const check = (ok: boolean, what: string) => { if (!ok) problems.push(what); };
  let appliedOps = 0;
  const ownStandings = new Map<string, { tablePoints: number; score: number }>();
  for (const { join, hands, ops } of plans) {
    const { sheet } = await api<{ sheet: TableSheet }>('GET', `/api/events/${ev.event.id}/tables/1/${join.table}`, undefined, join.token);
    // The version counts the ops applied: each op of the phone once, however often it was sent.
    appliedOps += sheet.version;
    check(sheet.version === ops.length, `table ${join.table}: version ${sheet.version}, ${ops.length} ops`);
    check(sheet.hands.length === HANDS, `table ${join.table}: ${sheet.hands.length} hands, expected ${HANDS}`);
    check(isDeepStrictEqual(sheet.hands.map((h) => [h.handId, h.hand]), hands.map((h) => [h.handId, h.hand])), `table ${join.table}: the sheet differs from the phone's`);
    sheet.hands.forEach((h, i) => {
      check((h.check.status === 'flagged') === hands[i].wrong, `table ${join.table}, ${h.handId}: check ${h.check.status}`);
      if (h.hand.kind === 'win') check((h.check.serverPoints ?? h.hand.points) === hands[i].truePoints, `table ${join.table}, ${h.handId}: server reads ${h.check.serverPoints}`);
    });
    // The bench's own reading: the phone's hands with the engine's totals.
    const computed = computeSheet({
      players: join.players,
      hands: hands.map((h) => (h.hand.kind === 'win' ? { ...h.hand, points: h.truePoints } : h.hand)),
      meta: {},
    });
    join.players.forEach((name, p) => ownStandings.set(name, { tablePoints: computed.tablePoints[p], score: computed.totals[p] }));
  }
  check(appliedOps === totalOps, `applied ops: ${appliedOps}, sent ${totalOps} distinct`);
  const { flags } = await api<{ flags: Flag[] }>('GET', `/api/events/${ev.event.id}/flags`, undefined, ev.directorKey);
  const wrongHands = plans.reduce((s, p) => s + p.hands.filter((h) => h.wrong).length, 0);
  check(flags.length === wrongHands, `flags: ${flags.length}, wrong totals sent: ${wrongHands}`);
  const standings = await api<Standings>('GET', `/api/events/${ev.event.id}/standings`);
  check(standings.players.length === players.length, `standings list ${standings.players.length} players`);
  for (const p of standings.players) {
    const own = ownStandings.get(p.name);
    check(own !== undefined && Math.abs(own.tablePoints - p.tablePoints) < 1e-9 && own.score === p.score,
      `${p.name}: standings ${p.tablePoints}/${p.score}, recomputed ${own?.tablePoints}/${own?.score}`);
  }
  const ranksOk = standings.players.every((p, i, all) => i === 0 || all[i - 1].tablePoints > p.tablePoints
    || (all[i - 1].tablePoints === p.tablePoints && all[i - 1].score >= p.score));
  check(ranksOk, 'standings are not in rank order');

  await stopServer();
  rmSync(dataDir, { recursive: true, force: true });
  if (problems.length) {
    console.error(`FAILED: ${problems.length} check(s)\n${problems.slice(0, 20).join('\n')}`);
    process.exit(1);
  }
  console.log(`checks passed: ${totalOps} ops applied once each, ${totalHands} hands on the sheets, ${flags.length} wrong totals flagged, standings of ${players.length} players equal the recomputation`);
}

main().catch((e: unknown) => {
  console.error(`bench:event: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
  server?.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
});
