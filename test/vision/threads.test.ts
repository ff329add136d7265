import { describe, expect, it } from 'vitest';
import { nodeThreads } from '../../src/vision/node.ts';
import { MAX_THREADS } from '../../src/vision/runtime.ts';

describe('nodeThreads (wasm threads in Node)', () => {
  it('uses the cores, at most MAX_THREADS, at least one', () => {
    expect(nodeThreads({}, 2)).toBe(2);
    expect(nodeThreads({}, 1)).toBe(1);
    expect(nodeThreads({}, 0)).toBe(1);
    expect(nodeThreads({}, 64)).toBe(MAX_THREADS);
  });

  it('takes MAHJONG_THREADS when given, and names a bad value', () => {
    expect(nodeThreads({ MAHJONG_THREADS: '1' }, 8)).toBe(1);
    expect(nodeThreads({ MAHJONG_THREADS: '3' }, 2)).toBe(3);
    expect(nodeThreads({ MAHJONG_THREADS: '' }, 2)).toBe(2);
    for (const bad of ['0', '5', '1.5', 'two', '-1']) {
      expect(() => nodeThreads({ MAHJONG_THREADS: bad }, 2)).toThrow(new RegExp(`MAHJONG_THREADS must be a whole number from 1 to ${MAX_THREADS}, got "${bad.replace('.', '\\.')}"`));
    }
  });
});
