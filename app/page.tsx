import { InboxView } from '@/components/inbox/inbox-view';

export default function InboxPage() {
  return <InboxView />;
}
