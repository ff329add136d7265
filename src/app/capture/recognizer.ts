/**
 * The app's side of the recognition Worker. ORT and the model load only inside
 * the worker, so the main thread never blocks; this module just passes typed
 * messages (see src/vision/protocol.ts).
 */
import type { ScanProfile, WorkerRequest, WorkerResponse } from '../../vision/protocol.ts';
import { isWorkerResponse } from '../../vision/protocol.ts';
import type { ScanResult } from '../../vision/types.ts';

/** Model and ORT files, relative to the page (same origin; precached by the service worker). */
export const MODEL_FILES = { detector: 'model/detector.onnx', classifier: 'model/classifier.onnx', classifier2: 'model/classifier2.onnx', flowers: 'model/flowers.onnx', flowers2: 'model/flowers2.onnx', finder: 'model/finder.onnx', verifier: 'model/verifier.onnx' };
export const ORT_PATH = 'ort/';

export type RecognizerStatus =
  | { phase: 'idle' }
  | { phase: 'loading' }
  | { phase: 'ready'; threads: number }
  | { phase: 'failed'; code: string; message: string };

export interface ScanProgress { stage: string; fraction: number }

type Pending = { resolve: (r: ScanResult) => void; reject: (e: RecognitionError) => void; onProgress?: (p: ScanProgress) => void };

export class RecognitionError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

type Listener = (s: RecognizerStatus) => void;

export class Recognizer {
  private worker: Worker | null = null;
  private status: RecognizerStatus = { phase: 'idle' };
  private listeners = new Set<Listener>();
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private readyWaiters: { resolve: () => void; reject: (e: RecognitionError) => void }[] = [];

  constructor(private readonly makeWorker: () => Worker = defaultWorker) {}

  get current(): RecognizerStatus { return this.status; }

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    l(this.status);
    return () => this.listeners.delete(l);
  }

  private set(s: RecognizerStatus) {
    this.status = s;
    this.listeners.forEach((l) => l(s));
    if (s.phase === 'ready') this.readyWaiters.splice(0).forEach((w) => w.resolve());
    if (s.phase === 'failed') this.readyWaiters.splice(0).forEach((w) => w.reject(new RecognitionError(s.code, s.message)));
  }

  /** Start the worker and load the model in the background (idempotent; retries after a failure). */
  start(): void {
    if (this.status.phase === 'loading' || this.status.phase === 'ready') return;
    this.set({ phase: 'loading' });
    try {
      this.worker?.terminate();
      const w = this.makeWorker();
      this.worker = w;
      w.onmessage = (ev: MessageEvent) => this.onMessage(ev.data);
      w.onerror = (ev: ErrorEvent) => {
        ev.preventDefault?.();
        this.fail('model-load-failed', ev.message || 'the recognition worker stopped');
      };
      const base = typeof document !== 'undefined' ? document.baseURI : self.location.href;
      const init: Extract<WorkerRequest, { type: 'init' }> = {
        type: 'init',
        detectorUrl: new URL(MODEL_FILES.detector, base).href,
        classifierUrl: new URL(MODEL_FILES.classifier, base).href,
        classifier2Url: new URL(MODEL_FILES.classifier2, base).href,
        flowersUrl: new URL(MODEL_FILES.flowers, base).href,
        flowers2Url: new URL(MODEL_FILES.flowers2, base).href,
        finderUrl: new URL(MODEL_FILES.finder, base).href,
        verifierUrl: new URL(MODEL_FILES.verifier, base).href,
      };
      // In the build Vite emits the wasm next to the worker; only the dev server needs the path.
      if (import.meta.env.DEV) init.wasmPaths = new URL(ORT_PATH, base).href;
      w.postMessage(init);
    } catch (e) {
      this.fail('model-load-failed', (e as Error).message || String(e));
    }
  }

  private fail(code: string, message: string) {
    this.set({ phase: 'failed', code, message });
    for (const [, p] of this.pending) p.reject(new RecognitionError(code, message));
    this.pending.clear();
  }

  private onMessage(data: unknown) {
    if (!isWorkerResponse(data)) return;
    const m = data as WorkerResponse;
    switch (m.status) {
      case 'loading': if (this.status.phase !== 'loading') this.set({ phase: 'loading' }); break;
      case 'ready': this.set({ phase: 'ready', threads: m.threads }); break;
      case 'progress': this.pending.get(m.id)?.onProgress?.({ stage: m.stage, fraction: m.fraction }); break;
      case 'result': {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        p?.resolve(m.result);
        break;
      }
      case 'error': {
        if (m.id === undefined) { this.fail(m.code, m.message); break; }
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        p?.reject(new RecognitionError(m.code, m.message));
        break;
      }
    }
  }

  private whenReady(): Promise<void> {
    if (this.status.phase === 'ready') return Promise.resolve();
    if (this.status.phase === 'failed') return Promise.reject(new RecognitionError(this.status.code, this.status.message));
    this.start();
    return new Promise((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  /** Recognise the tiles of a photo. Rejects with a RecognitionError. */
  /** Scan a photo; with `profile`, the club's tile-set profile weighs in from the read stage on. */
  async scan(image: Blob, onProgress?: (p: ScanProgress) => void, profile?: ScanProfile): Promise<ScanResult> {
    await this.whenReady();
    const id = this.nextId++;
    const buf = await image.arrayBuffer();
    return new Promise<ScanResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      const req: WorkerRequest = { type: 'scan', id, image: buf, ...(profile ? { profile } : {}) };
      this.worker!.postMessage(req, profile ? [buf, profile.embeddings.buffer] : [buf]);
    });
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
    this.set({ phase: 'idle' });
  }
}

function defaultWorker(): Worker {
  return new Worker(new URL('../../vision/worker.ts', import.meta.url), { type: 'module' });
}

let shared: Recognizer | null = null;
export const recognizer = (): Recognizer => (shared ??= new Recognizer());
