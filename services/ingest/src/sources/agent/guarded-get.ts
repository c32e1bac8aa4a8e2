// The agent client's HTTP GET. Plain fetch for a client on its own (tests, tools); the worker's agents go through
// `guardedGet`, which checks every address the agent's name resolves to against the source policy and connects
// to a checked one (decision 0985), and follows a redirect only through the same check.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { SourcePolicy } from '@takt/domain';
import {
  SourceRefusedError,
  addressProblem,
  guardedLookup,
  interfaceAddresses,
  normalHost,
} from '../address-policy';

export interface AgentAnswer {
  status: number;
  body: string;
}

export type AgentGet = (url: string, signal: AbortSignal) => Promise<AgentAnswer>;

/** fetch, following redirects: for a client given a URL by whoever runs it. */
export const fetchGet: AgentGet = async (url, signal) => {
  const response = await fetch(url, { signal });
  return { status: response.status, body: await response.text() };
};

/** Redirects followed at most (each one checked like the first request). */
const MAX_REDIRECTS = 3;
/** An agent document larger than this is no document we read (a sample page of 1,000 items is far below). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

const portOf = (url: URL) => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

function getOnce(
  url: URL,
  policy: SourcePolicy,
  signal: AbortSignal,
): Promise<AgentAnswer & { location?: string }> {
  const port = portOf(url);
  const host = normalHost(url.hostname);
  // An IP literal is connected to without a lookup: it is checked here.
  if (net.isIP(host) !== 0) {
    const problem = addressProblem(host, port, policy, interfaceAddresses());
    if (problem) return Promise.reject(new SourceRefusedError(problem));
  }
  const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null;
  if (!client) return Promise.reject(new Error(`${url.protocol} is not http: or https:`));
  return new Promise((resolve, reject) => {
    const request = client.request(url, { lookup: guardedLookup(policy, port), signal }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          response.destroy(new Error(`the answer is larger than ${MAX_BODY_BYTES} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          ...(response.headers.location ? { location: response.headers.location } : {}),
        }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

/** GET through the source policy: every hop's addresses checked before it is connected to. */
export function guardedGet(policy: SourcePolicy): AgentGet {
  return async (url, signal) => {
    let target = new URL(url);
    for (let hop = 0; ; hop++) {
      const answer = await getOnce(target, policy, signal);
      if (answer.status < 300 || answer.status >= 400 || answer.location === undefined) return answer;
      if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
      target = new URL(answer.location, target);
    }
  };
}
