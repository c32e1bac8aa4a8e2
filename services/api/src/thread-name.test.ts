import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { nameThisThread, THREAD_NAME_MAX } from './thread-name';

// Decision 1260: the node's threads carry their names in /proc (what top -H and ps -L show).
const comm = () => readFileSync('/proc/thread-self/comm', 'utf8').trim();

describe('nameThisThread', () => {
  const before = comm();
  afterEach(() => nameThisThread(before));

  it('names the calling thread, cut to the 15 bytes Linux keeps', () => {
    expect(nameThisThread('takt-ingest')).toBe(true);
    expect(comm()).toBe('takt-ingest');
    expect(nameThisThread('takt-a-name-longer-than-linux-keeps')).toBe(true);
    expect(comm()).toBe('takt-a-name-longer-than-linux-keeps'.slice(0, THREAD_NAME_MAX));
    expect(comm()).toHaveLength(15);
  });
});
