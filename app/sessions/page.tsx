import { SessionsView } from '@/components/sessions/sessions-view';

export default function SessionsPage() {
  return <SessionsView />;
}
