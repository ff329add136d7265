/**
 * The one place that imports onnxruntime-web. Configures the wasm backend once
 * (thread count, self-hosted wasm paths) and picks execution providers:
 * WebGPU when the browser has `navigator.gpu`, always wasm as the fallback.
 * Works in Node (the package's node entry loads its own wasm files).
 */
import * as ort from 'onnxruntime-web';

export interface RuntimeOptions {
  /** Base URL (or per-file map) of the self-hosted ORT wasm files (browser). */
  wasmPaths?: string;
  /** wasm threads; default: up to MAX_THREADS when the page is cross-origin isolated (browser), else 1
   * (Node: node.ts passes nodeThreads()). */
  numThreads?: number;
  /** Use WebGPU when available (default true). */
  webgpu?: boolean;
}

/** Most wasm threads the models run on, in the browser and in Node (node.ts nodeThreads). */
export const MAX_THREADS = 4;

let configured: RuntimeOptions | null = null;

const isNode = typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';

/** Configures the runtime once; later calls change nothing. Returns the wasm thread count in use. */
export function configureRuntime(opts: RuntimeOptions = {}): number {
  if (configured) return ort.env.wasm.numThreads ?? 1;
  configured = { ...opts };
  if (opts.wasmPaths) ort.env.wasm.wasmPaths = opts.wasmPaths;
  let threads = opts.numThreads;
  if (threads === undefined) {
    const g = globalThis as { crossOriginIsolated?: boolean; navigator?: { hardwareConcurrency?: number } };
    threads = !isNode && g.crossOriginIsolated ? Math.min(MAX_THREADS, g.navigator?.hardwareConcurrency ?? 1) : 1;
  }
  ort.env.wasm.numThreads = threads;
  ort.env.logLevel = 'error';
  return threads;
}

export function executionProviders(): string[] {
  const nav = (globalThis as { navigator?: { gpu?: unknown } }).navigator;
  const useGpu = (configured?.webgpu ?? true) && !isNode && !!nav?.gpu;
  return useGpu ? ['webgpu', 'wasm'] : ['wasm'];
}

export type OrtSession = ort.InferenceSession;
export type OrtTensor = ort.Tensor;

export async function createSession(model: Uint8Array): Promise<OrtSession> {
  configureRuntime();
  return ort.InferenceSession.create(model, {
    executionProviders: executionProviders(),
    graphOptimizationLevel: 'all',
  });
}

export function floatTensor(data: Float32Array, dims: readonly number[]): OrtTensor {
  return new ort.Tensor('float32', data, dims);
}
