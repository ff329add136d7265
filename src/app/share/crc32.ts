/** CRC-32 lives in the engine (src/engine/share/crc32.ts) beside the hand-link codec. */
export * from '../../engine/share/crc32.ts';
