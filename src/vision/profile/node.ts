/**
 * Node side of the tile-set profile (the `scan` CLI and the evaluation): teaching lines read and
 * checked, photos decoded and their confirmed boxes embedded, the profile file read, and written
 * atomically (a temporary file beside it, then renamed over it), so that it is never left
 * half-written.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { decodeNode } from '../decode-node.ts';
import { scanPhoto, type PipelineOptions } from '../pipeline.ts';
import type { Models } from '../session.ts';
import { TILE_CODES, type Box, type ScanResult, type TileCode } from '../types.ts';
import type { ProfileScorer } from './combine.ts';
import { embedBoxes, embeddingDim } from './embed.ts';
import { addExamples, emptyProfile, parseProfile, ProfileError, serializeProfile, type Profile, type ProfileExample } from './format.ts';

/** A teaching line's error: names the line (1-based) and says what is wrong. */
export class TeachError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = 'TeachError';
    this.line = line;
  }
}

export interface TeachLine {
  line: number;
  file: string;
  tiles: { code: TileCode; box: Box }[];
}

const CODES = new Set<string>(TILE_CODES);
const lineSchema = z.object({
  file: z.string().min(1),
  tiles: z.array(z.object({ code: z.string(), box: z.tuple([z.number(), z.number(), z.number(), z.number()]) }).passthrough()),
}).passthrough();

/**
 * The teaching lines of a JSONL text: `{"file", "tiles": [{"code", "box": [x, y, w, h]}]}` (the
 * scan's own `--json` lines with the codes corrected; other fields are ignored). Blank lines are
 * skipped. `base` resolves relative file names when they are not found from the working folder.
 * Throws TeachError naming the first bad line: not JSON, not that shape, an unknown code, a box
 * of no size, or a file that does not exist.
 */
export function readTeachLines(text: string, base = '.'): TeachLine[] {
  const out: TeachLine[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      throw new TeachError(line, 'not a JSON object');
    }
    if (v && typeof v === 'object' && 'error' in v) throw new TeachError(line, 'a scan error line, not a scanned photo');
    const r = lineSchema.safeParse(v);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new TeachError(line, `expected {"file", "tiles": [{"code", "box": [x, y, w, h]}]}: ${issue.path.join('.') || 'the line'}: ${issue.message}`);
    }
    const tiles = r.data.tiles.map((t, j) => {
      if (!CODES.has(t.code)) throw new TeachError(line, `tile ${j + 1}: unknown tile code "${t.code}" (codes: 1m..9m, 1p..9p, 1s..9s, 1z..7z, f1..f8, back)`);
      const [, , w, h] = t.box;
      if (!(w > 0 && h > 0) || t.box.some((n) => !Number.isFinite(n))) throw new TeachError(line, `tile ${j + 1}: box [${t.box.join(', ')}] has no size`);
      return { code: t.code as TileCode, box: t.box as Box };
    });
    const file = existsSync(r.data.file) ? r.data.file : path.resolve(base, r.data.file);
    if (!existsSync(file)) throw new TeachError(line, `file not found: ${r.data.file}`);
    out.push({ line, file, tiles });
  });
  return out;
}

/** An id of the classifier the embeddings come from: the first 16 hex digits of its file's SHA-256. */
export async function classifierId(file: string): Promise<string> {
  return `sha256:${createHash('sha256').update(await readFile(file)).digest('hex').slice(0, 16)}`;
}

/** A profile file read; absent: undefined. Throws ProfileError when it is not a whole profile. */
export async function readProfileFile(file: string): Promise<Profile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  return parseProfile(text);
}

/** Write the profile atomically: a temporary file in the same folder, renamed over the target. */
export async function writeProfileFile(file: string, p: Profile): Promise<void> {
  const tmp = path.join(path.dirname(path.resolve(file)), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await writeFile(tmp, serializeProfile(p), { flag: 'wx' });
    await rename(tmp, file);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

/**
 * The examples the lines teach: each photo decoded (EXIF-rotated, as the scan reads it), each box
 * embedded. A photo that cannot be decoded is a TeachError naming its line.
 */
export async function teachExamples(lines: readonly TeachLine[], models: Models, now = Date.now()): Promise<Omit<ProfileExample, 'id'>[]> {
  const out: Omit<ProfileExample, 'id'>[] = [];
  for (const l of lines) {
    let photo;
    try {
      photo = await decodeNode(new Uint8Array(await readFile(l.file)));
    } catch (e) {
      throw new TeachError(l.line, `cannot read the photo ${l.file}: ${(e as Error).message}`);
    }
    for (const [j, t] of l.tiles.entries()) {
      const [x, y, w, h] = t.box;
      if (x + w <= 0 || y + h <= 0 || x >= photo.originalWidth || y >= photo.originalHeight) throw new TeachError(l.line, `tile ${j + 1}: box [${t.box.join(', ')}] lies outside the ${photo.originalWidth}x${photo.originalHeight} photo`);
    }
    const readings = await embedBoxes(photo, models, l.tiles.map((t) => t.box));
    readings.forEach((r, j) => out.push({ code: l.tiles[j]!.code, embedding: r.views[0], source: path.basename(l.file), at: now }));
  }
  return out;
}

/** `existing` (or a new profile) with the lines' examples learnt. */
export async function teachProfile(lines: readonly TeachLine[], models: Models, existing: Profile | undefined, model?: string): Promise<Profile> {
  const base = existing ?? emptyProfile(await embeddingDim(models), model);
  if (existing && model && existing.model && existing.model !== model) throw new ProfileError('dimension-mismatch', `the profile was learnt with another classifier (${existing.model}, now ${model}); teach a new profile`);
  return addExamples(base, await teachExamples(lines, models));
}

/** A photo's bytes scanned (as vision/node.ts scanBytes) with the profile's scorer in the read stage (PipelineOptions.profile). */
export async function scanBytesWithProfile(bytes: Uint8Array, models: Models, scorer: ProfileScorer, opts: PipelineOptions = {}): Promise<ScanResult> {
  return scanPhoto(await decodeNode(bytes), models, { ...opts, profile: scorer });
}
