/**
 * A synchronous copy of the newest saved state in localStorage, next to the
 * IndexedDB copy. An IndexedDB write is asynchronous, so a reload (or a crash)
 * right after a tap can abort the write in flight; `localStorage.setItem` has
 * finished when it returns. Both copies carry a stamp, and loading takes the
 * newer one. The mirror is best effort: when localStorage is full or missing,
 * IndexedDB alone still holds the work.
 */

export interface KeyValueSync {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const browserStorage = (): KeyValueSync | null => {
  try {
    return (globalThis as { localStorage?: KeyValueSync }).localStorage ?? null;
  } catch {
    return null; // e.g. storage blocked by the browser's privacy settings
  }
};

let last = 0;
/** A strictly increasing stamp (milliseconds, bumped when two changes share one). */
export function nextStamp(): number {
  last = Math.max(Date.now(), last + 1);
  return last;
}

export interface Mirror<T> {
  write(stamp: number, value: T): void;
  /** The mirrored value when it is newer than `stamp` (the IndexedDB copy's), else null. */
  newerThan(stamp: number | undefined): T | null;
}

export function createMirror<T>(key: string, storage: () => KeyValueSync | null = browserStorage): Mirror<T> {
  return {
    write(stamp, value) {
      try {
        storage()?.setItem(key, JSON.stringify({ stamp, value }));
      } catch {
        // quota exceeded or storage unavailable: the IndexedDB write still runs
      }
    },
    newerThan(stamp) {
      try {
        const raw = storage()?.getItem(key);
        if (!raw) return null;
        const parsed = JSON.parse(raw) as { stamp?: unknown; value?: unknown };
        if (typeof parsed.stamp !== 'number' || parsed.value === undefined) return null;
        if (stamp !== undefined && parsed.stamp <= stamp) return null;
        last = Math.max(last, parsed.stamp);
        return parsed.value as T;
      } catch {
        return null;
      }
    },
  };
}
