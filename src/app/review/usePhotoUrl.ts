import { useEffect, useState } from 'react';
import { loadPhoto } from '../state/store.ts';

/** Object URL of the stored photo, revoked when the photo changes. */
export function usePhotoUrl(key: string | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    let made: string | null = null;
    setUrl(null);
    if (key) {
      void loadPhoto(key).then((blob) => {
        if (!live || !blob) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      });
    }
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [key]);
  return url;
}
