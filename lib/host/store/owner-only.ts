import fs from 'node:fs';

/**
 * Creates `file` empty, readable and writable by its owner only, unless it exists (R12.9). A database
 * opened on it afterwards keeps that mode, and SQLite gives its WAL and shared-memory files the same.
 */
export function createOwnerOnly(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** Takes group and others' access away from each of `files` that exists and has any (an older install's). */
export function tightenToOwner(...files: string[]): void {
  for (const file of files) {
    let mode: number;
    try {
      mode = fs.statSync(file).mode;
    } catch {
      continue;
    }
    if ((mode & 0o077) !== 0) fs.chmodSync(file, mode & 0o700);
  }
}
