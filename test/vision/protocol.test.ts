import { describe, expect, it } from 'vitest';
import { isWorkerRequest, isWorkerResponse } from '../../src/vision/protocol.ts';

describe('worker protocol guards', () => {
  it('accepts well-formed requests and rejects others', () => {
    expect(isWorkerRequest({ type: 'init', detectorUrl: '/d.onnx', classifierUrl: '/c.onnx' })).toBe(true);
    expect(isWorkerRequest({ type: 'scan', id: 1, image: new ArrayBuffer(4) })).toBe(true);
    expect(isWorkerRequest({ type: 'dispose' })).toBe(true);
    expect(isWorkerRequest({ type: 'scan', id: '1', image: new ArrayBuffer(4) })).toBe(false);
    expect(isWorkerRequest({ type: 'init', detectorUrl: 3 })).toBe(false);
    expect(isWorkerRequest({ type: 'init', detectorUrl: '/d.onnx', classifierUrl: '/c.onnx', flowersUrl: '/f.onnx' })).toBe(true);
    expect(isWorkerRequest({ type: 'init', detectorUrl: '/d.onnx', classifierUrl: '/c.onnx', flowersUrl: 7 })).toBe(false);
    expect(isWorkerRequest({ type: 'init', detectorUrl: '/d.onnx', classifierUrl: '/c.onnx', classifier2Url: '/c2.onnx', flowersUrl: '/f.onnx' })).toBe(true);
    expect(isWorkerRequest({ type: 'init', detectorUrl: '/d.onnx', classifierUrl: '/c.onnx', flowersUrl: '/f.onnx', flowers2Url: '/f2.onnx' })).toBe(true);
    expect(isWorkerRequest({ type: 'init', detectorUrl: '/d.onnx', classifierUrl: '/c.onnx', flowersUrl: '/f.onnx', flowers2Url: 2 })).toBe(false);
    expect(isWorkerRequest({ type: 'init', detectorUrl: '/d.onnx', classifierUrl: '/c.onnx', classifier2Url: null })).toBe(false);
    expect(isWorkerRequest({ type: 'init', detectorUrl: '/d.onnx', classifierUrl: '/c.onnx', finderUrl: '/n.onnx' })).toBe(true);
    expect(isWorkerRequest({ type: 'init', detectorUrl: '/d.onnx', classifierUrl: '/c.onnx', finderUrl: 3 })).toBe(false);
    expect(isWorkerRequest({ type: 'init', detectorUrl: '/d.onnx', classifierUrl: '/c.onnx', verifierUrl: '/v.onnx' })).toBe(true);
    expect(isWorkerRequest({ type: 'init', detectorUrl: '/d.onnx', classifierUrl: '/c.onnx', verifierUrl: false })).toBe(false);
    expect(isWorkerRequest(null)).toBe(false);
    expect(isWorkerRequest('scan')).toBe(false);
  });
  it('accepts each status-tagged response', () => {
    expect(isWorkerResponse({ status: 'loading', message: 'x' })).toBe(true);
    expect(isWorkerResponse({ status: 'ready', modelBytes: 10, threads: 2 })).toBe(true);
    // the thread count is part of 'ready': a whole number, at least one
    expect(isWorkerResponse({ status: 'ready', modelBytes: 10 })).toBe(false);
    expect(isWorkerResponse({ status: 'ready', modelBytes: 10, threads: 0 })).toBe(false);
    expect(isWorkerResponse({ status: 'ready', modelBytes: 10, threads: 1.5 })).toBe(false);
    expect(isWorkerResponse({ status: 'progress', id: 1, stage: 'detect', fraction: 0.5 })).toBe(true);
    expect(isWorkerResponse({ status: 'result', id: 1, result: { width: 1, height: 1, tiles: [] }, ms: 3 })).toBe(true);
    expect(isWorkerResponse({ status: 'error', code: 'truncated', message: 'x' })).toBe(true);
    expect(isWorkerResponse({ status: 'result', id: 1, result: {}, ms: 3 })).toBe(false);
    expect(isWorkerResponse({ status: 'done' })).toBe(false);
  });
});
