/** Unit vectors, apart from the profile's file format (format.ts) so that the recognition worker,
 * which embeds crops in its read stage, does not bundle zod. */

/** The vector scaled to unit length (a zero vector stays zero). */
export function unit(v: ArrayLike<number>): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  const k = s > 0 ? 1 / Math.sqrt(s) : 0;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! * k;
  return out;
}
