/** Seeded PRNG helpers. Never use Math.random in the generator. */
export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Stable 32-bit hash of a list of numbers/strings (FNV-1a + avalanche). */
export function hash(...parts: (number | string)[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    const s = String(p);
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0xff;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export const rngFor = (...parts: (number | string)[]): Rng => mulberry32(hash(...parts));

export const uni = (r: Rng, a: number, b: number): number => a + (b - a) * r();
export const int = (r: Rng, a: number, b: number): number => Math.floor(a + (b - a + 1) * r());
export const chance = (r: Rng, p: number): boolean => r() < p;
export function pick<T>(r: Rng, arr: readonly T[]): T {
  return arr[Math.floor(r() * arr.length)];
}
export function weighted<T>(r: Rng, items: readonly (readonly [T, number])[]): T {
  let tot = 0;
  for (const [, w] of items) tot += w;
  let x = r() * tot;
  for (const [v, w] of items) {
    x -= w;
    if (x <= 0) return v;
  }
  return items[items.length - 1][0];
}
export function shuffle<T>(r: Rng, arr: T[]): T[] {
  for (let i = arr.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [arr[i], arr[j]] = [arr[j], arr[i]];
  }
  return arr;
}
/** Approximately normal (sum of 3 uniforms), mean 0, sd ~1. */
export const gauss = (r: Rng): number => (r() + r() + r() - 1.5) * 2;
export const clamp = (x: number, a: number, b: number): number => (x < a ? a : x > b ? b : x);
