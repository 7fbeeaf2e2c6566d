// Bundles the CLI (bin/cli.ts, everything it imports from lib/ and its pure-JS dependencies) into dist/cli.js,
// so the published package installs one runtime dependency instead of ~180 packages and starts from one file.
// better-sqlite3 stays external: it is a native addon, built or downloaded for the user's Node at install time.
// The licenses of the bundled packages go to dist/THIRD-PARTY-LICENSES.txt, which ships with the bundle.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundleCli } from './cli-bundle.mjs';

const root = path.resolve(import.meta.dirname, '..');
const outfile = path.join(root, 'dist', 'cli.js');
const metafile = await bundleCli(outfile);

const packages = bundledPackages(metafile);
await writeFile(path.join(root, 'dist', 'THIRD-PARTY-LICENSES.txt'), await licenseText(packages));
const { bytes } = Object.values(metafile.outputs).find((output) => output.entryPoint) ?? { bytes: 0 };
console.log(`Built dist/cli.js (${Math.round(bytes / 1024)} KiB, ${packages.length} bundled packages)`);

/** The package folders (node_modules/<name> or node_modules/@scope/<name>, possibly nested) the bundle took code from. */
function bundledPackages(metafile) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match?.[1]) dirs.add(path.resolve(root, match[1]));
  }
  return [...dirs].sort();
}

async function licenseText(dirs) {
  const sections = [];
  for (const dir of dirs) {
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    const files = (await readdir(dir)).filter((name) => /^(licen[cs]e|copying)(\..*)?$/i.test(name)).sort();
    const texts = await Promise.all(files.map((name) => readFile(path.join(dir, name), 'utf8')));
    const body = texts.length > 0 ? texts.join('\n').trim() : `License: ${manifest.license ?? 'see the package'}`;
    sections.push(`${manifest.name}@${manifest.version}\n${'-'.repeat(60)}\n${body}\n`);
  }
  return `dist/cli.js bundles the following packages. Their licenses:\n\n${sections.join('\n')}`;
}
