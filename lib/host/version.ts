import packageJson from '../../package.json';

/** The running host's version, reported by `/healthz` and in snapshots. */
export const HOST_VERSION: string = packageJson.version;
