import { PairView } from '@/components/pair/pair-view';

export default function PairPage() {
  return <PairView />;
}
