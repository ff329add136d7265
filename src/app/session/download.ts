/** Save text as a file through a same-origin Blob URL (nothing leaves the device). */
export function downloadText(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke after the click has been handled, or some browsers cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A file name from the sheet's header, e.g. "sheet-club-night-table-3.csv". */
export function sheetFileName(parts: (string | undefined)[], ext: string): string {
  const slug = parts.filter(Boolean).join('-').toLowerCase().normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return `sheet${slug ? `-${slug}` : ''}.${ext}`;
}
