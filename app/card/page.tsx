import { Suspense } from 'react';
import { CardScreen } from '@/components/card/card-screen';

export default function CardPage() {
  return (
    <Suspense fallback={null}>
      <CardScreen />
    </Suspense>
  );
}
