/// <reference lib="webworker" />
/**
 * The learning worker: loads only `classifier.onnx` (its `embedding` output) and embeds the boxes
 * of a photo, returning each crop's reading and, for teaching, the crop as a small JPEG for the
 * "Your tile set" page. Started only when the device has a profile or learns one, so a player
 * who never corrects a tile never loads it.
 *
 *   in:  {type: 'init', classifierUrl, wasmPaths?}
 *        {type: 'embed', id, image: ArrayBuffer, boxes: Box[], crops: boolean}
 *   out: {status: 'ready'} | {status: 'result', id, readings, crops?} | {status: 'error', id?, message}
 */
import { configureRuntime, createSession } from '../../vision/runtime.ts';
import { classifierCropSize } from '../../vision/session.ts';
import { decodeBrowser } from '../../vision/decode-browser.ts';
import { embedCrops, profileCrops, type EmbedModels } from '../../vision/profile/embed.ts';
import { TILE_CODES, type Box } from '../../vision/types.ts';

const ctx = self as unknown as DedicatedWorkerGlobalScope;
let models: Promise<EmbedModels> | null = null;

/** ORT's wasm threads start from this bundle too (see vision/worker.ts): leave their handler alone. */
if (!ctx.name?.startsWith('em-pthread')) ctx.onmessage = (ev: MessageEvent) => void onMessage(ev.data);

/** A (3, h, w) crop in [0, 1] as a JPEG data: URL. */
async function cropUrl(crops: Float32Array, i: number, w: number, h: number): Promise<string> {
  const plane = w * h, o = i * 3 * plane;
  const px = new Uint8ClampedArray(plane * 4);
  for (let k = 0; k < plane; k++) {
    px[k * 4] = crops[o + k]! * 255;
    px[k * 4 + 1] = crops[o + plane + k]! * 255;
    px[k * 4 + 2] = crops[o + 2 * plane + k]! * 255;
    px[k * 4 + 3] = 255;
  }
  const c = new OffscreenCanvas(w, h);
  c.getContext('2d')!.putImageData(new ImageData(px, w, h), 0, 0);
  const blob = await c.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
  const b = new Uint8Array(await blob.arrayBuffer());
  let s = '';
  for (let k = 0; k < b.length; k++) s += String.fromCharCode(b[k]!);
  return `data:image/jpeg;base64,${btoa(s)}`;
}

async function onMessage(msg: { type: string; id?: number; classifierUrl?: string; wasmPaths?: string; image?: ArrayBuffer; boxes?: Box[]; crops?: boolean }): Promise<void> {
  try {
    if (msg.type === 'init') {
      configureRuntime({ wasmPaths: msg.wasmPaths, numThreads: 1 });
      models = (async () => {
        const r = await fetch(msg.classifierUrl!);
        if (!r.ok) throw new Error(`HTTP ${r.status} for ${msg.classifierUrl}`);
        const classifier = await createSession(new Uint8Array(await r.arrayBuffer()));
        return { classifier, labels: TILE_CODES, crop: classifierCropSize(classifier) };
      })();
      await models;
      ctx.postMessage({ status: 'ready' });
      return;
    }
    if (msg.type === 'embed') {
      if (!models) throw new Error('the learning worker was not started');
      const m = await models;
      const photo = await decodeBrowser(new Uint8Array(msg.image!));
      const boxes = msg.boxes ?? [];
      const crops = profileCrops(photo, m, boxes);
      const readings = await embedCrops(m, crops, boxes.length);
      const { w, h } = m.crop!;
      const urls = msg.crops ? await Promise.all(boxes.map((_, i) => cropUrl(crops, i, w, h))) : undefined;
      ctx.postMessage({ status: 'result', id: msg.id, readings, ...(urls ? { crops: urls } : {}) });
    }
  } catch (e) {
    ctx.postMessage({ status: 'error', id: msg.id, message: (e as Error).message || String(e) });
  }
}
