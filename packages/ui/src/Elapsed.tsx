import { formatElapsed } from '@takt/domain';
import { useServerNow } from './clock';

/** Time since `since` on the server clock, ticking every second (only this element re-renders). */
export function Elapsed({
  since,
  offsetMs,
  className,
}: {
  since: number | null;
  offsetMs: number;
  className?: string;
}) {
  const now = useServerNow(offsetMs);
  return (
    <span className={className ? `elapsed num ${className}` : 'elapsed num'}>
      {formatElapsed(since, now)}
    </span>
  );
}
