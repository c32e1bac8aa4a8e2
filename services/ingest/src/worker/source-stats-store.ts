import { CompiledQuery } from 'kysely';
import { pgArray, sqlStatement } from '@takt/db';
import type { SourceStats } from './store';

const STATS_UPDATE =
  'update "machine_sources" set "stat_lines" = "stat_lines" + ?, "stat_observations" = "stat_observations" + ?, ' +
  '"stat_rejected" = "stat_rejected" + ?, "last_line_at" = ? where "id" = ?';

/**
 * The statements adding each source's counters, built before the batch's transaction (decision 1177). PostgreSQL:
 * one UPDATE … FROM unnest(…) for them all (a round trip a source made the statements most of a batch's time,
 * decision 0976); SQLite runs the prepared statement a source.
 */
export function sourceStatsStatements(numbered: boolean, stats: readonly SourceStats[]): CompiledQuery[] {
  if (stats.length === 0) return [];
  if (!numbered)
    return stats.map((s) =>
      sqlStatement(numbered, STATS_UPDATE, [s.lines, s.observations, s.rejected, s.lastLineAt, s.sourceId]),
    );
  // unnest pairs the arrays by position; a source listed twice would be updated once, so sum first.
  const bySource = new Map<string, SourceStats>();
  for (const s of stats) {
    const seen = bySource.get(s.sourceId);
    bySource.set(
      s.sourceId,
      seen
        ? {
            sourceId: s.sourceId,
            lines: seen.lines + s.lines,
            observations: seen.observations + s.observations,
            rejected: seen.rejected + s.rejected,
            lastLineAt: s.lastLineAt,
          }
        : s,
    );
  }
  const all = [...bySource.values()];
  return [
    CompiledQuery.raw(
      'update "machine_sources" as s set "stat_lines" = s."stat_lines" + d.lines, ' +
        '"stat_observations" = s."stat_observations" + d.observations, "stat_rejected" = s."stat_rejected" + d.rejected, ' +
        '"last_line_at" = d.last_line_at ' +
        'from unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[]) ' +
        'as d(id, lines, observations, rejected, last_line_at) where s."id" = d.id',
      [
        all.map((s) => s.sourceId),
        all.map((s) => s.lines),
        all.map((s) => s.observations),
        all.map((s) => s.rejected),
        all.map((s) => s.lastLineAt),
      ].map(pgArray),
    ),
  ];
}
