/**
 * CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as in zlib and PNG.
 * Used to detect a damaged hand link: it catches every change of up to 32
 * consecutive bits, so every single changed, lost or extra character.
 */
const TABLE: Uint32Array = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** CRC-32 of a string's UTF-8 bytes as 8 lower-case hex digits. */
export function crc32Hex(text: string): string {
  return crc32(new TextEncoder().encode(text)).toString(16).padStart(8, '0');
}
