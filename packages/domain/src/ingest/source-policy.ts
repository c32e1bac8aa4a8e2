// Where a machine source may point (decision 0985): the configuration and the texts the API and ingest share.
// Types and texts only: services/ingest implements the check (it resolves names and dials), the API applies it
// at save through its composition root.

/** Addresses a source may use in addition to the default (TAKT_SOURCE_NETWORKS, the demo plant's adapters). */
export interface SourceAllowance {
  /** An IPv4 or IPv6 network in CIDR notation, e.g. `127.0.0.1/32` or `fd00::/8`. */
  cidr: string;
  /** Only these ports (inclusive); absent: every port. */
  ports?: { from: number; to: number };
}

export interface SourcePolicy {
  allow: readonly SourceAllowance[];
  /**
   * Ports this server itself listens on (PORT): never a source on one of its own addresses, whatever `allow`
   * says (a source on the server's own /metrics or API is a request forgery, never a machine).
   */
  ownPorts: readonly number[];
}

/** The default: nothing opened beyond the private and public ranges, no port of our own known. */
export const DEFAULT_SOURCE_POLICY: SourcePolicy = { allow: [], ownPorts: [] };

/** The closed address classes; every other address (private LAN ranges and the internet) is open. */
export type ClosedAddressClass = 'loopback' | 'link-local' | 'unspecified' | 'multicast' | 'broadcast';

const CLASS_TEXT: Record<ClosedAddressClass, string> = {
  loopback: 'loopback addresses',
  'link-local': 'link-local addresses',
  unspecified: 'unspecified addresses',
  multicast: 'multicast addresses',
  broadcast: 'broadcast and reserved addresses',
};

export const SOURCE_ADDRESS_REFUSED = 'This address is not allowed for a machine source';

/** The 400 of a save, and the reason ingest gives for not connecting (Diagnostics shows it). */
export function closedAddressMessage(cls: ClosedAddressClass): string {
  return `${SOURCE_ADDRESS_REFUSED}: ${CLASS_TEXT[cls]} are closed unless TAKT_SOURCE_NETWORKS allows them.`;
}

export function ownPortMessage(port: number): string {
  return `${SOURCE_ADDRESS_REFUSED}: port ${port} on this server is Takt itself.`;
}

/** The 409 of a save whose address another company's machine uses (which company is not said). */
export const SOURCE_ADDRESS_TAKEN =
  'This address is already the source of a machine in another company: one source address belongs to one company.';
