/**
 * Keys, tokens, codes and ids. Director keys and table tokens are 32 random bytes; only their
 * SHA-256 is stored, and a presented secret is compared with crypto.timingSafeEqual.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { CODE_ALPHABET, CODE_LENGTH } from '../event/protocol.ts';

export const sha256 = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

const random64 = (bytes: number): string => randomBytes(bytes).toString('base64url');

export const newEventId = (): string => `ev_${random64(16)}`;
export const newFlagId = (): string => `fl_${random64(12)}`;
export const newDirectorKey = (): string => `dk_${random64(32)}`;
export const newTableToken = (): string => `tt_${random64(32)}`;

/** A table code of CODE_LENGTH characters of the unambiguous alphabet. */
export function newTableCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** Does `secret` hash to `storedHash`? Constant time in the hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(sha256(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The secret of an `Authorization: Bearer <secret>` header, or null. */
export function bearer(header: string | undefined | null): string | null {
  const m = /^Bearer\s+([A-Za-z0-9_-]{8,200})\s*$/.exec(header ?? '');
  return m ? m[1] : null;
}

/** A uniform random number in [0, 1) from the crypto source, for the seat draw. */
export const cryptoRandom = (): number => randomInt(2 ** 47) / 2 ** 47;
