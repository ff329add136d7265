/**
 * The club event pages, loaded only when one is opened: `#/event` (create, import, the events this
 * device directs), `#/event/<id>` (director), `#/event/<id>/standings`, and `#/join/<CODE>` (a table
 * card's QR code: the table joins, then its sheet opens).
 */
import { useSession } from '../session/useSession.ts';
import { DirectorView } from './DirectorView.tsx';
import { EventHome } from './EventHome.tsx';
import { StandingsPage } from './StandingsPage.tsx';
import { JoinForm } from './TableEventPanel.tsx';
import { useEventSync } from './useEventSync.ts';
import { useEventT } from './i18n.ts';

export type EventRoute =
  | { page: 'home' }
  | { page: 'director'; eventId: string }
  | { page: 'standings'; eventId: string }
  | { page: 'join'; code: string };

function JoinPage({ code }: { code: string }) {
  const { t } = useEventT();
  const { loaded, record } = useSession();
  const { sync, state } = useEventSync();
  if (!loaded || !state.loaded) return <p>{t('event.loading')}</p>;
  return (
    <div className="event-page">
      <h2>{t('event.join.title')}</h2>
      <JoinForm
        sync={sync} handsOnSheet={state.link ? 0 : record?.hands.length ?? 0} initialCode={code} auto
        onJoined={() => { location.hash = '#/table'; }}
      />
    </div>
  );
}

export function EventPages({ route }: { route: EventRoute }) {
  switch (route.page) {
    case 'home': return <EventHome />;
    case 'director': return <DirectorView eventId={route.eventId} />;
    case 'standings': return <StandingsPage eventId={route.eventId} />;
    case 'join': return <JoinPage code={route.code} />;
  }
}
