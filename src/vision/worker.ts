/// <reference lib="webworker" />
/**
 * Module Web Worker running the vision pipeline off the main thread.
 *   new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })
 * Protocol: see protocol.ts.
 */
import { configureRuntime } from './runtime.ts';
import { loadModels, disposeModels, type Models } from './session.ts';
import { decodeBrowser } from './decode-browser.ts';
import { scanPhoto } from './pipeline.ts';
import { primeModels, primeRaster } from './prime.ts';
import { classifyTileImage } from './stages/onetile.ts';
import { isWorkerRequest, type WorkerResponse } from './protocol.ts';
import { VisionError } from './types.ts';
import { scanProfileScorer } from './profile/combine.ts';

const ctx = self as unknown as DedicatedWorkerGlobalScope;
let models: Promise<Models> | null = null;
/** The models run once at a scan's shapes after loading (primeModels); a scan waits for it. */
let primed: Promise<void> = Promise.resolve();

function post(m: WorkerResponse, transfer: Transferable[] = []): void {
  ctx.postMessage(m, transfer);
}

/**
 * In a cross-origin isolated page onnxruntime-web runs the models on wasm threads, and in the
 * build each thread is a Worker started from this same bundle (ORT's `new Worker(import.meta.url,
 * { name: 'em-pthread' })`). There ORT's own message handler must stay: this file's handler would
 * replace it and the thread would never start.
 */
const isOrtThread = (name: string | undefined): boolean => !!name?.startsWith('em-pthread');

if (!isOrtThread(ctx.name)) ctx.onmessage = onMessage;

async function onMessage(ev: MessageEvent): Promise<void> {
  const msg = ev.data;
  if (!isWorkerRequest(msg)) {
    post({ status: 'error', code: 'bad-request', message: 'unrecognised message' });
    return;
  }
  if (msg.type === 'init') {
    const threads = configureRuntime({ wasmPaths: msg.wasmPaths });
    post({ status: 'loading', message: 'loading models' });
    models = loadModels({ detector: msg.detectorUrl, classifier: msg.classifierUrl, ...(msg.classifier2Url ? { classifier2: msg.classifier2Url } : {}), ...(msg.flowersUrl ? { flowers: msg.flowersUrl } : {}), ...(msg.flowers2Url ? { flowers2: msg.flowers2Url } : {}), ...(msg.finderUrl ? { finder: msg.finderUrl } : {}), ...(msg.verifierUrl ? { verifier: msg.verifierUrl } : {}) });
    try {
      const m = await models;
      post({ status: 'ready', modelBytes: m.bytes, threads });
      // while the player frames the photo: the first scan then runs at about the speed of later ones
      primed = primeModels(m, primeRaster('browser')).catch(() => undefined);
    } catch (e) {
      models = null;
      post({ status: 'error', code: e instanceof VisionError ? e.code : 'model-load-failed', message: (e as Error).message });
    }
    return;
  }
  if (msg.type === 'dispose') {
    if (models) await disposeModels(await models.catch(() => undefined));
    models = null;
    return;
  }
  const id = msg.id;
  if (!models) {
    post({ status: 'error', id, code: 'bad-request', message: 'send init before scan' });
    return;
  }
  const t0 = performance.now();
  try {
    const m = await models;
    await primed;
    post({ status: 'progress', id, stage: 'decode', fraction: 0 });
    const bytes = msg.image instanceof ArrayBuffer ? new Uint8Array(msg.image) : new Uint8Array(await msg.image.arrayBuffer());
    const photo = await decodeBrowser(bytes);
    if (msg.asTile) {
      const top = await classifyTileImage(photo.image, m);
      post({ status: 'result', id, result: { width: photo.originalWidth, height: photo.originalHeight, tiles: [] }, top, ms: performance.now() - t0 });
      return;
    }
    const result = await scanPhoto(photo, m, {
      onProgress: (stage, fraction) => post({ status: 'progress', id, stage, fraction }),
      ...(msg.profile?.codes.length ? { profile: scanProfileScorer(msg.profile) } : {}),
    });
    post({ status: 'result', id, result, ms: performance.now() - t0 });
  } catch (e) {
    post({ status: 'error', id, code: e instanceof VisionError ? e.code : 'inference-failed', message: (e as Error).message });
  }
}
