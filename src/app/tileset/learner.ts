/**
 * Learning the club's set in the app (loaded on demand): a confirmed hand's corrected tiles teach
 * the device's profile, and a new scan's tiles are read again with it. Both embed the photo's
 * boxes in the learning worker (learn.worker.ts); the profile itself lives in IndexedDB (store.ts).
 */
import { MODEL_FILES, ORT_PATH } from '../capture/recognizer.ts';
import { loadPhoto } from '../state/store.ts';
import type { Work } from '../model/work.ts';
import { applyReadings } from '../../vision/profile/apply.ts';
import { knnScorer } from '../../vision/profile/combine.ts';
import type { CropReading } from '../../vision/profile/embed.ts';
import { addExamples, type Profile } from '../../vision/profile/format.ts';
import { TILE_CODES, type Box, type ScanResult, type TileCode } from '../../vision/types.ts';
import { learningEnabled, loadTileSet, saveTileSet } from './store.ts';

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

const CODES = new Set<string>(TILE_CODES);

/**
 * Teach the profile the confirmed hand's tiles (those with a box on the photo). A hand taught
 * before (the same photo, corrected again) replaces its earlier examples rather than adding to them.
 * Returns how many tiles were learnt (0 when learning is off or the hand has no photo).
 */
export async function teachHand(work: Work): Promise<number> {
  if (work.source !== 'photo' || !work.photo || !(await learningEnabled())) return 0;
  const tiles = work.tiles.filter((t): t is typeof t & { box: Box } => !!t.box && CODES.has(t.code));
  if (!tiles.length) return 0;
  const blob = await loadPhoto(work.photo.key);
  if (!blob) return 0;
  const { readings, crops } = await embedPhoto(blob, tiles.map((t) => [...t.box] as Box), true);
  const source = work.photo.key;
  const now = Date.now();
  const p = await loadTileSet();
  const kept: Profile = { ...p, examples: p.examples.filter((e) => e.source !== source) };
  const next = addExamples(kept, tiles.map((t, i) => ({ code: t.code as TileCode, embedding: readings[i]!.views[0], ...(crops?.[i] ? { crop: crops[i] } : {}), source, at: now })));
  await saveTileSet(next);
  return tiles.length;
}

/** A scan's tiles read again with the device's profile (unchanged when it has no examples). */
export async function applyTileSet(photo: Blob, result: ScanResult): Promise<ScanResult> {
  const p = await loadTileSet();
  if (!p.examples.length || !result.tiles.length) return result;
  const { readings } = await embedPhoto(photo, result.tiles.map((t) => t.box), false);
  return applyReadings(result, readings, knnScorer(p), TILE_CODES);
}
