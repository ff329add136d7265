/**
 * Whether this phone's table has joined a club event: a localStorage flag the shell reads at start
 * without loading the event code, so the sync runs app-wide (a hand added from the scanner is sent
 * too) only on phones that joined, and the others never load it.
 */
export const JOINED_FLAG = 'mj.event.joined';

export function isJoined(): boolean {
  try {
    return localStorage.getItem(JOINED_FLAG) === '1';
  } catch {
    return false;
  }
}

export function setJoined(joined: boolean): void {
  try {
    if (joined) localStorage.setItem(JOINED_FLAG, '1');
    else localStorage.removeItem(JOINED_FLAG);
  } catch { /* storage blocked: the table page still starts the sync when it opens */ }
}
