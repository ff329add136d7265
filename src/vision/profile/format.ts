/**
 * A tile-set profile: what one club's own set looks like, learnt from the tiles its players
 * confirmed. Each example is a crop's embedding (the classifier's `embedding` output: the pooled
 * features before its last layer, L2-normalised) with the code the player confirmed, and, in the
 * app, the crop itself as a small image so that the player can see and remove it.
 *
 * The file is versioned JSON, checked with zod on every read; a file that does not pass is a
 * ProfileError with a message a player understands, never a half-read profile. Embeddings are
 * stored as base64 of little-endian float32 (512 numbers a crop in 2.7 kB of text).
 */
import { z } from 'zod';
import { TILE_CODES, type TileCode } from '../types.ts';
import { unit } from './unit.ts';

export const PROFILE_FORMAT = 'mahjong-tile-set-profile';
export const PROFILE_VERSION = 1;
/** Most examples a profile keeps of one kind: the newest stay (a set's look is learnt by then). */
export const MAX_PER_KIND = 24;

export type ProfileErrorCode = 'not-json' | 'not-a-profile' | 'newer-version' | 'bad-example' | 'dimension-mismatch';

export class ProfileError extends Error {
  readonly code: ProfileErrorCode;
  constructor(code: ProfileErrorCode, message: string) {
    super(message);
    this.name = 'ProfileError';
    this.code = code;
  }
}

export interface ProfileExample {
  /** Stable id (remove one by it). */
  id: string;
  code: TileCode;
  /** Unit-length embedding of the crop, standing upright. */
  embedding: Float32Array;
  /** The crop as a data: URL (JPEG or PNG), when kept (the app keeps it; the CLI does not). */
  crop?: string;
  /** Where it came from: a file name (CLI) or the hand's time (app). */
  source?: string;
  /** When it was learnt (ms since 1970). */
  at: number;
}

export interface Profile {
  /** Embedding length (the classifier's feature width: 512 for the shipped network). */
  dim: number;
  /** Which classifier the embeddings came from (bytes of classifier.onnx): embeddings of another
   * network are not comparable, so a profile of another model is used with a warning only. */
  model?: string;
  examples: ProfileExample[];
}

const exampleSchema = z.object({
  id: z.string().min(1).max(64),
  code: z.enum(TILE_CODES),
  embedding: z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/, 'embedding must be base64'),
  crop: z.string().regex(/^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/]+={0,2}$/, 'crop must be a data: URL of an image').optional(),
  source: z.string().max(500).optional(),
  at: z.number().int().nonnegative(),
});

const fileSchema = z.object({
  format: z.literal(PROFILE_FORMAT),
  version: z.number().int().positive(),
  dim: z.number().int().min(8).max(4096),
  model: z.string().max(200).optional(),
  examples: z.array(exampleSchema).max(43 * MAX_PER_KIND * 2),
});

export type ProfileFile = z.infer<typeof fileSchema>;

export const emptyProfile = (dim = 512, model?: string): Profile => ({ dim, ...(model ? { model } : {}), examples: [] });

// ------------------------------------------------------------------ base64 float32
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function bytesToBase64(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i]! << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    s += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + (i + 1 < b.length ? B64[(n >> 6) & 63]! : '=') + (i + 2 < b.length ? B64[n & 63]! : '=');
  }
  return s;
}

function base64ToBytes(s: string): Uint8Array {
  const clean = s.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let o = 0;
  for (let i = 0; i < clean.length; i += 4) {
    const n = (B64.indexOf(clean[i]!) << 18) | (B64.indexOf(clean[i + 1] ?? 'A') << 12) | (B64.indexOf(clean[i + 2] ?? 'A') << 6) | B64.indexOf(clean[i + 3] ?? 'A');
    if (o < out.length) out[o++] = (n >> 16) & 255;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}

export function floatsToBase64(v: Float32Array): string {
  const b = new Uint8Array(v.length * 4);
  const dv = new DataView(b.buffer);
  v.forEach((x, i) => dv.setFloat32(i * 4, x, true));
  return bytesToBase64(b);
}

export function base64ToFloats(s: string): Float32Array {
  const b = base64ToBytes(s);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out = new Float32Array(Math.floor(b.length / 4));
  for (let i = 0; i < out.length; i++) out[i] = dv.getFloat32(i * 4, true);
  return out;
}

export { unit } from './unit.ts';

// ------------------------------------------------------------------ read / write
/** The profile as the JSON text of its file (one example a line, so that a diff shows what was learnt). */
export function serializeProfile(p: Profile): string {
  const head = JSON.stringify({ format: PROFILE_FORMAT, version: PROFILE_VERSION, dim: p.dim, ...(p.model ? { model: p.model } : {}) });
  const lines = p.examples.map((e) => JSON.stringify({ id: e.id, code: e.code, embedding: floatsToBase64(e.embedding), ...(e.crop ? { crop: e.crop } : {}), ...(e.source ? { source: e.source } : {}), at: e.at }));
  return `${head.slice(0, -1)},"examples":[${lines.length ? `\n${lines.join(',\n')}\n` : ''}]}\n`;
}

/** A profile from its file's text. Throws ProfileError when it is not one, or not whole. */
export function parseProfile(text: string): Profile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ProfileError('not-json', `the tile-set profile is not JSON (${(e as Error).message})`);
  }
  const head = z.object({ format: z.string(), version: z.number() }).safeParse(raw);
  if (!head.success || head.data.format !== PROFILE_FORMAT) throw new ProfileError('not-a-profile', 'this file is not a tile-set profile');
  if (head.data.version > PROFILE_VERSION) throw new ProfileError('newer-version', `this tile-set profile is version ${head.data.version}, written by a newer app; this one reads version ${PROFILE_VERSION}`);
  const r = fileSchema.safeParse(raw);
  if (!r.success) {
    const first = r.error.issues[0]!;
    throw new ProfileError('bad-example', `the tile-set profile is damaged at ${first.path.join('.') || 'its top'}: ${first.message}`);
  }
  const f = r.data;
  const examples = f.examples.map((e, i): ProfileExample => {
    const embedding = base64ToFloats(e.embedding);
    if (embedding.length !== f.dim) throw new ProfileError('dimension-mismatch', `example ${i + 1} (${e.code}) has ${embedding.length} numbers, the profile ${f.dim}`);
    if (embedding.some((x) => !Number.isFinite(x))) throw new ProfileError('bad-example', `example ${i + 1} (${e.code}) holds a number that is not finite`);
    return { id: e.id, code: e.code, embedding, ...(e.crop ? { crop: e.crop } : {}), ...(e.source ? { source: e.source } : {}), at: e.at };
  });
  return { dim: f.dim, ...(f.model ? { model: f.model } : {}), examples };
}

// ------------------------------------------------------------------ editing (pure)
let counter = 0;
/** A short id unique within a profile's lifetime. */
export function newExampleId(now = Date.now()): string {
  counter = (counter + 1) % 1_000_000;
  return `${now.toString(36)}-${counter.toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/**
 * The profile with `added` learnt: each example's embedding made unit length, and of each kind
 * only the newest MAX_PER_KIND kept. Throws ProfileError when an embedding's length is not the
 * profile's.
 */
export function addExamples(p: Profile, added: readonly Omit<ProfileExample, 'id'>[], maxPerKind = MAX_PER_KIND): Profile {
  for (const e of added) if (e.embedding.length !== p.dim) throw new ProfileError('dimension-mismatch', `an embedding of ${e.embedding.length} numbers does not fit a profile of ${p.dim}`);
  const all = [...p.examples, ...added.map((e) => ({ ...e, id: newExampleId(e.at), embedding: unit(e.embedding) }))];
  const byKind = new Map<TileCode, ProfileExample[]>();
  for (const e of all) byKind.set(e.code, [...(byKind.get(e.code) ?? []), e]);
  const keep = new Set<ProfileExample>();
  for (const list of byKind.values()) for (const e of [...list].sort((a, b) => b.at - a.at).slice(0, maxPerKind)) keep.add(e);
  return { ...p, examples: all.filter((e) => keep.has(e)) };
}

export const removeExample = (p: Profile, id: string): Profile => ({ ...p, examples: p.examples.filter((e) => e.id !== id) });

/** Examples per kind, in TILE_CODES order (kinds with none left out). */
export function countsByKind(p: Profile): { code: TileCode; count: number }[] {
  const n = new Map<TileCode, number>();
  for (const e of p.examples) n.set(e.code, (n.get(e.code) ?? 0) + 1);
  return TILE_CODES.flatMap((code) => (n.get(code) ? [{ code, count: n.get(code)! }] : []));
}

/** The examples of another profile (an import) added to this one, duplicates (same id) once. */
export function mergeProfiles(a: Profile, b: Profile): Profile {
  if (a.dim !== b.dim) throw new ProfileError('dimension-mismatch', `the imported profile's embeddings have ${b.dim} numbers, this one's ${a.dim}: it was made with another recognition model`);
  const ids = new Set(a.examples.map((e) => e.id));
  const merged = { ...a, examples: [...a.examples, ...b.examples.filter((e) => !ids.has(e.id))] };
  return addExamples(merged, []);
}
