import { isIP } from 'node:net';
import type { CompanyScope } from '@takt/db';
import type { MachineSourceInput } from '@takt/domain';
import { DEFAULT_SOURCE_POLICY, SOURCE_ADDRESS_TAKEN } from '@takt/domain';
import type { Deps } from '../http/context';
import { ApiError, invalidInput } from '../http/errors';
import { dialledSourcesElsewhere, enabledSourcesOf } from '../repositories/machine-sources';

// Where a machine source may point (issue 26 finding 2): the server dials it, so an address is a request the
// server makes for the admin who typed it. Checked at save here and again at every connect by ingest.

/** How many of other companies' source names on the same port a save resolves (decision 0986). */
const MAX_NAMES_RESOLVED = 64;

/**
 * A source to be saved: 400 when the address policy refuses it (decision 0985: loopback, link-local, unspecified,
 * multicast, broadcast, this server's own ports, unless TAKT_SOURCE_NETWORKS opens them), 409 when a machine of
 * another company already uses the address (decision 0986; which company is not said). MQTT sources name no
 * address. Resolves names, so call it before opening a transaction.
 */
export async function checkMachineSource(
  deps: Pick<Deps, 'ingest' | 'sourcePolicy'>,
  scope: CompanyScope,
  source: MachineSourceInput | null | undefined,
): Promise<void> {
  if (!source || source.kind === 'mqtt') return;
  const endpoint = deps.ingest.sourceEndpoint(source);
  if (!endpoint) return;
  const field = source.kind === 'shdr' ? 'source.host' : 'source.baseUrl';
  const { problem, addresses } = await deps.ingest.sourceTargetProblem(
    endpoint,
    deps.sourcePolicy ?? DEFAULT_SOURCE_POLICY,
  );
  if (problem) throw invalidInput([{ field, code: 'address_not_allowed', message: problem }]);
  // The host as typed, and the addresses a name has now: a name for another company's adapter IP is that adapter.
  const hosts = new Set([endpoint.host, ...addresses]);
  const others = (await dialledSourcesElsewhere(scope, endpoint.port))
    .map((o) => deps.ingest.sourceEndpoint(o))
    .filter((e) => e !== null && e.port === endpoint.port);
  let taken = others.some((e) => hosts.has(e!.host));
  if (!taken) {
    // Another company's source stored by name is that name's addresses now: resolved (at most
    // MAX_NAMES_RESOLVED names, each within the resolver's 3 s) so typing the address of an adapter another
    // company named is refused too.
    const names = [...new Set(others.map((e) => e!.host).filter((host) => isIP(host) === 0))];
    const resolved = await Promise.all(
      names.slice(0, MAX_NAMES_RESOLVED).map(async (host) => {
        const r = await deps.ingest.sourceTargetProblem(
          { host, port: endpoint.port },
          deps.sourcePolicy ?? DEFAULT_SOURCE_POLICY,
        );
        return r.addresses;
      }),
    );
    taken = resolved.some((addresses) => addresses.some((a) => hosts.has(a)));
  }
  if (taken)
    throw new ApiError(409, 'SOURCE_ADDRESS_TAKEN', SOURCE_ADDRESS_TAKEN, [
      { field, code: 'address_taken', message: SOURCE_ADDRESS_TAKEN },
    ]);
}

/**
 * Why ingest does not connect the machine's source, null when nothing stops it (live-operations §4 diagnostics;
 * decisions 0985, 0986): the same checks ingest makes before each connect, on the sources as stored, so a source
 * saved before the rule, or a name that now resolves to a closed address, shows its reason.
 */
export async function storedSourceProblem(
  deps: Pick<Deps, 'ingest' | 'sourcePolicy'>,
  scope: CompanyScope,
  machineId: string,
): Promise<string | null> {
  const sources = await enabledSourcesOf(scope, machineId);
  for (const s of sources) {
    const endpoint = deps.ingest.sourceEndpoint(s);
    if (!endpoint) continue;
    const { problem } = await deps.ingest.sourceTargetProblem(
      endpoint,
      deps.sourcePolicy ?? DEFAULT_SOURCE_POLICY,
    );
    if (problem) return problem;
    const others = await dialledSourcesElsewhere(scope, endpoint.port);
    // Of two companies on one address the older source keeps it (ingest's rule, decision 0986).
    const older = others.some((o) => {
      const e = deps.ingest.sourceEndpoint(o);
      return e !== null && e.host === endpoint.host && e.port === endpoint.port && o.createdAt < s.createdAt;
    });
    if (older) return SOURCE_ADDRESS_TAKEN;
  }
  return null;
}
