// Child processes of the tests (an ingest worker, the whole product) started from one bundled file instead of
// through tsx's loader, module by module. Not used at run time.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const DIR = join(ROOT, '.tmp', 'test-bundles');
const bundles = new Map<string, Promise<string[]>>();

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The node arguments that run the TypeScript file `entry`: its own sources and the workspace's @takt packages
 * bundled with esbuild (tsx's own transpiler), once per test process, into .tmp/test-bundles beside
 * node_modules, which the bundle imports as installed. Loading a few hundred modules one by one through tsx took
 * an ingest worker 1.6 s of CPU and 6-8 s of wall time on the loaded machine, the bundle a third of that
 * (decision 1151). Without esbuild, or with TAKT_TEST_BUNDLE=0: `--import tsx entry`, as before. The same code runs either way; only
 * `import.meta.url` names the bundle, so an entry that finds files by it must be told where they are.
 */
export function bundledCommand(entry: string): Promise<string[]> {
  let command = bundles.get(entry);
  if (!command) {
    command = bundle(entry).catch(() => ['--import', 'tsx', entry]);
    bundles.set(entry, command);
  }
  return command;
}

async function bundle(entry: string): Promise<string[]> {
  if (process.env.TAKT_TEST_BUNDLE === '0') throw new Error('bundles turned off');
  const { build } = await import('esbuild');
  mkdirSync(DIR, { recursive: true });
  // A bundle whose test process was killed before it could remove its file goes now.
  for (const name of readdirSync(DIR)) {
    const pid = Number(/-(\d+)\.mjs$/.exec(name)?.[1]);
    if (pid && !alive(pid)) rmSync(join(DIR, name), { force: true });
  }
  const outfile = join(DIR, `${basename(entry, '.ts')}-${process.pid}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    plugins: [
      {
        name: 'packages-as-installed',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (a) =>
            a.path.startsWith('@takt/') ? undefined : { path: a.path, external: true },
          );
        },
      },
    ],
  });
  process.once('exit', () => rmSync(outfile, { force: true }));
  // A module that runs as a command when it is the process's main file (`import.meta.url` against argv[1]) would
  // run inside the bundle, which is the main file: such an entry runs through tsx.
  if ((await readFile(outfile, 'utf8')).includes('process.argv[1]')) throw new Error('a command inside');
  return [outfile];
}
