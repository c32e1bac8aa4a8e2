// What the worker knows of a source when it links it: the types its transports read (sources/ depends on
// nothing in worker/).

export interface SourceRow {
  sourceId: string;
  /** simulator: lines the office test screen feeds through the inbox, as a gateway's (decision 1100). */
  kind: 'shdr' | 'gateway' | 'mqtt' | 'agent' | 'simulator';
  companyId: string;
  machineId: string;
  machineName: string;
  host: string;
  port: number;
  cycleSource: 'part_count' | 'execution';
  /** gateway and MQTT: the name the edge uses for the machine */
  machineRef: string | null;
  /** MQTT: the company's reference in topics */
  companyRef: string | null;
  /** gateway: the gateway that pushes the machine's lines */
  gatewayId: string | null;
  baseUrl: string | null;
  pollIntervalMs: number | null;
  agentInstanceId: string | null;
  agentNextSequence: number | null;
  /** When the source was made: of two companies' sources on one address, the older keeps it (decision 0986). */
  createdAt: number;
}

/**
 * Sources whose lines the API stores (observations and an inbox row each) for the worker to derive: a gateway's
 * pushes, and the office test screen's simulated execution (decision 1100).
 */
export const fedByInbox = (kind: SourceRow['kind']): boolean => kind === 'gateway' || kind === 'simulator';

/** An adapter field as the derivation needs it: the MTConnect data item type and subtype of a key. */
export interface FieldMeaning {
  type: string;
  subType: string | null;
}
