// Every temporary dir the unit suite makes (data dirs, HOMEs, agents' config, PostgreSQL's cluster) goes under one
// folder of the run's: TMPDIR is what os.tmpdir() reads, in the workers and in every process they start. The folder
// goes when the run ends, so runs leave nothing in /tmp, however a test ends.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'askaway-unit-'));
  // Passable, not listable: a test's PostgreSQL runs as another user (pg-cluster.ts) in a dir of its own below.
  fs.chmodSync(root, 0o711);
  process.env.TMPDIR = root;
  return () => {
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
