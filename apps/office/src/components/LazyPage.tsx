import { Progress } from '@takt/ui';
import { Suspense } from 'react';
import type { ReactNode } from 'react';

/** The app's Suspense frame for pages loaded on first use: a progress bar where the page will be. */
export function LazyPage({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <main className="page">
          <Progress />
        </main>
      }
    >
      {children}
    </Suspense>
  );
}
