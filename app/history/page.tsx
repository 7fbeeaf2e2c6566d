import { HistoryView } from '@/components/history/history-view';

export default function HistoryPage() {
  return <HistoryView />;
}
