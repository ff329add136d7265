/**
 * Typed, status-tagged messages between the app and the vision Worker.
 * App -> worker: WorkerRequest. Worker -> app: WorkerResponse.
 */
import type { ScanResult, VisionErrorCode } from './types.ts';

export interface InitRequest {
  type: 'init';
  /** URLs of the ONNX files (the second classifier, the flower readers, the finder and the verifier are optional). */
  detectorUrl: string;
  classifierUrl: string;
  classifier2Url?: string;
  flowersUrl?: string;
  flowers2Url?: string;
  finderUrl?: string;
  verifierUrl?: string;
  /** Base URL of the self-hosted onnxruntime-web wasm files. */
  wasmPaths?: string;
}

export interface ScanRequest {
  type: 'scan';
  id: number;
  /** The photo's bytes (transferred), or a Blob/File. */
  image: ArrayBuffer | Blob;
  /** Treat the picture as one tile and return the top 3 classes. */
  asTile?: boolean;
  /** The club's tile-set profile to read with (PipelineOptions.profile; src/vision/profile). */
  profile?: ScanProfile;
}

/** A tile-set profile's examples as the scan needs them: the codes, and their unit embeddings one
 * after another (codes.length x dim). */
export interface ScanProfile {
  dim: number;
  codes: string[];
  embeddings: Float32Array;
}

/** Whether `x` is a ScanProfile whose embeddings fit its codes and width. */
export function isScanProfile(x: unknown): x is ScanProfile {
  return isObj(x) && typeof x.dim === 'number' && x.dim > 0 && Array.isArray(x.codes) && x.codes.every((c) => typeof c === 'string') &&
    x.embeddings instanceof Float32Array && x.embeddings.length === x.codes.length * x.dim;
}

export interface DisposeRequest {
  type: 'dispose';
}

export type WorkerRequest = InitRequest | ScanRequest | DisposeRequest;

export interface LoadingMessage { status: 'loading'; message: string }
/** `threads`: the wasm threads the models run on (more than one only in a cross-origin isolated page). */
export interface ReadyMessage { status: 'ready'; modelBytes: number; threads: number }
export interface ProgressMessage { status: 'progress'; id: number; stage: 'decode' | 'detect' | 'classify' | 'layout'; fraction: number }
export interface ResultMessage {
  status: 'result';
  id: number;
  result: ScanResult;
  /** Present for asTile requests. */
  top?: { code: string; score: number }[];
  ms: number;
}
export interface ErrorMessage { status: 'error'; id?: number; code: VisionErrorCode | 'bad-request'; message: string }

export type WorkerResponse = LoadingMessage | ReadyMessage | ProgressMessage | ResultMessage | ErrorMessage;

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

export function isWorkerRequest(x: unknown): x is WorkerRequest {
  if (!isObj(x)) return false;
  switch (x.type) {
    case 'init':
      return typeof x.detectorUrl === 'string' && typeof x.classifierUrl === 'string' && (x.classifier2Url === undefined || typeof x.classifier2Url === 'string') && (x.flowersUrl === undefined || typeof x.flowersUrl === 'string') && (x.flowers2Url === undefined || typeof x.flowers2Url === 'string') && (x.finderUrl === undefined || typeof x.finderUrl === 'string') &&
        (x.verifierUrl === undefined || typeof x.verifierUrl === 'string') &&
        (x.wasmPaths === undefined || typeof x.wasmPaths === 'string');
    case 'scan':
      return typeof x.id === 'number' && (x.image instanceof ArrayBuffer || (typeof Blob !== 'undefined' && x.image instanceof Blob)) && (x.profile === undefined || isScanProfile(x.profile));
    case 'dispose':
      return true;
    default:
      return false;
  }
}

export function isWorkerResponse(x: unknown): x is WorkerResponse {
  if (!isObj(x)) return false;
  switch (x.status) {
    case 'loading':
      return typeof x.message === 'string';
    case 'ready':
      return typeof x.modelBytes === 'number' && Number.isInteger(x.threads) && (x.threads as number) >= 1;
    case 'progress':
      return typeof x.id === 'number' && typeof x.stage === 'string' && typeof x.fraction === 'number';
    case 'result':
      return typeof x.id === 'number' && isObj(x.result) && Array.isArray((x.result as Record<string, unknown>).tiles) && typeof x.ms === 'number';
    case 'error':
      return typeof x.code === 'string' && typeof x.message === 'string';
    default:
      return false;
  }
}
