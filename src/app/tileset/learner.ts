/**
 * Learning the club's set in the app (loaded on demand): the confirmed hands queued in IndexedDB
 * (teach.ts queueTeach) teach the device's profile, their photos' boxes embedded in the learning
 * worker (learn.worker.ts); and a new scan gets the profile's examples to read with (the
 * recognition worker applies them in its read stage). The profile lives in IndexedDB (store.ts).
 */
import { MODEL_FILES, ORT_PATH } from '../capture/recognizer.ts';
import { del, get, getMany, set, update } from 'idb-keyval';
import type { CropReading } from '../../vision/profile/embed.ts';
import { addExamples, type Profile } from '../../vision/profile/format.ts';
import type { ScanProfile } from '../../vision/protocol.ts';
import { TILE_CODES, type Box, type TileCode } from '../../vision/types.ts';
import { TAUGHT_PREFIX, TEACH_PREFIX, teachJobKeys, tilesetDb, type TeachJob } from './db.ts';
import { loadTileSet, saveTileSet } from './store.ts';

const CODES = new Set<string>(TILE_CODES);

type Reply = { status: 'ready' } | { status: 'result'; id: number; readings: CropReading[]; crops?: string[] } | { status: 'error'; id?: number; message: string };

let worker: Worker | null = null;
let ready: Promise<void> | null = null;
let nextId = 1;
const pending = new Map<number, { resolve: (r: { readings: CropReading[]; crops?: string[] }) => void; reject: (e: Error) => void }>();

function start(): Promise<void> {
  if (ready) return ready;
  ready = new Promise<void>((resolve, reject) => {
    const w = new Worker(new URL('./learn.worker.ts', import.meta.url), { type: 'module' });
    worker = w;
    w.onmessage = (ev: MessageEvent<Reply>) => {
      const m = ev.data;
      if (m.status === 'ready') resolve();
      else if (m.status === 'result') { pending.get(m.id)?.resolve(m); pending.delete(m.id); }
      else if (m.id === undefined) reject(new Error(m.message));
      else { pending.get(m.id)?.reject(new Error(m.message)); pending.delete(m.id); }
    };
    w.onerror = (e) => { e.preventDefault?.(); reject(new Error(e.message || 'the learning worker stopped')); };
    const base = document.baseURI;
    w.postMessage({ type: 'init', classifierUrl: new URL(MODEL_FILES.classifier, base).href, ...(import.meta.env.DEV ? { wasmPaths: new URL(ORT_PATH, base).href } : {}) });
  });
  ready.catch(() => { ready = null; worker?.terminate(); worker = null; });
  return ready;
}

/** The readings of `boxes` of a photo (and with `crops`, the crops as JPEG data: URLs). */
export async function embedPhoto(photo: Blob, boxes: Box[], crops: boolean): Promise<{ readings: CropReading[]; crops?: string[] }> {
  await start();
  const id = nextId++;
  const image = await photo.arrayBuffer();
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker!.postMessage({ type: 'embed', id, image, boxes, crops }, [image]);
  });
}

/** The device's profile as a scan reads it (protocol.ts ScanProfile); undefined when it has no examples. */
export async function profileForScan(): Promise<ScanProfile | undefined> {
  const p = await loadTileSet();
  if (!p.examples.length) return undefined;
  const embeddings = new Float32Array(p.examples.length * p.dim);
  p.examples.forEach((e, i) => embeddings.set(e.embedding, i * p.dim));
  return { dim: p.dim, codes: p.examples.map((e) => e.code), embeddings };
}

/** Attempts after which a job the learning worker cannot read is given up (with a warning). */
const MAX_ATTEMPTS = 3;
let draining: Promise<void> | null = null;
let again = false;

/**
 * Teach the profile every hand in the queue (db.ts TeachJob), oldest first: each job's tiles
 * embedded from its photo in the learning worker, the examples its photo taught before replaced by
 * them, the profile saved, then the job removed (unless the hand was confirmed again meanwhile:
 * that newer job stays for the next round). One drain runs at a time; a call during it runs
 * another round after it. A job that fails stays queued for the next start, and after
 * MAX_ATTEMPTS failures is dropped with a warning on the console.
 */
export function drainTeachQueue(): Promise<void> {
  if (draining) {
    again = true;
    return draining;
  }
  draining = (async () => {
    do {
      again = false;
      const db = tilesetDb();
      const jobs = (await getMany<TeachJob | undefined>(await teachJobKeys(), db)).filter((j): j is TeachJob => !!j).sort((a, b) => a.at - b.at);
      for (const job of jobs) await teachJob(job);
    } while (again);
  })().finally(() => { draining = null; });
  return draining;
}

async function teachJob(job: TeachJob): Promise<void> {
  const db = tilesetDb();
  const key = TEACH_PREFIX + job.source;
  try {
    const tiles = job.tiles.filter((t) => CODES.has(t.code));
    const { readings, crops } = await embedPhoto(job.photo, tiles.map((t) => [...t.box] as Box), true);
    const p = await loadTileSet();
    const kept: Profile = { ...p, examples: p.examples.filter((e) => e.source !== job.source) };
    const next = addExamples(kept, tiles.map((t, i) => ({ code: t.code as TileCode, embedding: readings[i]!.views[0], ...(crops?.[i] ? { crop: crops[i] } : {}), source: job.source, at: job.at })));
    await saveTileSet(next);
    await set(TAUGHT_PREFIX + job.source, job.sig, db);
    await finish(key, job);
  } catch (e) {
    const attempts = (job.attempts ?? 0) + 1;
    if (attempts >= MAX_ATTEMPTS) {
      console.warn(`tile set: a confirmed hand could not be learnt after ${attempts} attempts and is given up`, e);
      await finish(key, job);
    } else {
      console.warn('tile set: a confirmed hand could not be learnt yet; it stays queued', e);
      await update<TeachJob | undefined>(key, (cur) => (cur && cur.at === job.at ? { ...cur, attempts } : cur), db);
    }
  }
}

/** Remove the job, unless a newer one for the same photo took its place. */
async function finish(key: string, job: TeachJob): Promise<void> {
  const db = tilesetDb();
  const cur = await get<TeachJob | undefined>(key, db);
  if (cur && cur.at === job.at) await del(key, db);
}
