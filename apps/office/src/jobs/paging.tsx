import { tr } from '@takt/ui';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../api';
import { jobsPageQuery, parseJobs } from './report';
import type { AggregateBy, JobAnswer, JobsAnswer, Range } from './report';

// The Jobs report's infinite scroll (reports-admin §2 "Infinite scroll distance 1"; decision 0821): the first
// page comes with the report's call, the next ones are asked for when the end of the cards nears.

export interface JobsSelection {
  range: Range;
  jobId: string | null;
  group: string | null;
  /** The Machine jobs report's machine. */
  machineId: string | null;
  aggregateBy: AggregateBy;
}

interface More {
  key: string;
  jobs: JobAnswer[];
  loading: boolean;
  error: string | null;
}

/**
 * The entries of `first` (page one of `selection`) and of the pages loaded after it. A new selection starts
 * over; an answer for an older one is dropped.
 */
export function useJobPages(first: JobsAnswer, selection: JobsSelection) {
  const key = JSON.stringify(selection);
  const [more, setMore] = useState<More>({ key, jobs: [], loading: false, error: null });
  const current: More = useMemo(
    () => (more.key === key ? more : { key, jobs: [], loading: false, error: null }),
    [more, key],
  );
  const jobs = useMemo(() => [...first.jobs, ...current.jobs], [first.jobs, current.jobs]);
  const done = jobs.length >= first.total;
  // One page at a time: the observer can fire again before React re-renders with `loading` set.
  const inFlight = useRef<string | null>(null);
  const loadMore = useCallback(() => {
    if (done || inFlight.current === key) return;
    inFlight.current = key;
    setMore({ ...current, loading: true, error: null });
    api
      .request('/api/reports/warehouse/jobs', {
        query: jobsPageQuery(selection, jobs.length),
        parse: parseJobs,
      })
      .then((a) =>
        setMore((m) =>
          m.key === key ? { key, jobs: [...m.jobs, ...a.jobs], loading: false, error: null } : m,
        ),
      )
      .catch(() =>
        setMore((m) => (m.key === key ? { ...m, loading: false, error: tr('reports.requestError') } : m)),
      )
      .finally(() => {
        if (inFlight.current === key) inFlight.current = null;
      });
  }, [done, key, current, selection, jobs.length]);
  return { jobs, total: first.total, done, loading: current.loading, error: current.error, loadMore };
}

/**
 * Calls `onNear` while it is within one screen height below the visible part of the page (distance 1), and
 * again after each page (`count` changes), so a short page or a search that leaves few cards keeps loading.
 */
export function NearEnd({ onNear, count }: { onNear: () => void; count: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const latest = useRef(onNear);
  useEffect(() => {
    latest.current = onNear;
  });
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) latest.current();
      },
      { rootMargin: '0px 0px 100% 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [count]);
  return <div ref={ref} className="jobs__near-end" aria-hidden="true" />;
}
