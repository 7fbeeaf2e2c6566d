// Every temporary dir a test run makes (data dirs, HOMEs, agents' config, PostgreSQL's cluster) goes under one
// folder of the run's (the unit suite's and each Playwright run's): TMPDIR is what os.tmpdir() reads, in the workers and in every process they start. The folder
// goes when the run ends, so runs leave nothing in /tmp, however a test ends.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Makes the run's folder (named `prefix…`) the TMPDIR of this process and its children; returns its removal. */
export function makeRunTempRoot(prefix: string): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  // Passable, not listable: a test's PostgreSQL runs as another user (pg-cluster.ts) in a dir of its own below.
  fs.chmodSync(root, 0o711);
  process.env.TMPDIR = root;
  return () => {
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}

/** Vitest's global setup (it passes its own argument): the unit suite's folder. */
export default function setup(): () => void {
  return makeRunTempRoot('askaway-unit-');
}
