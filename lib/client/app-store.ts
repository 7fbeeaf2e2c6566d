import { createRemoteStore } from './store';

/**
 * What every screen renders from (hooks/use-remote.ts). Its own module, so a screen can read it
 * without loading the connection (./app-connection, loaded after first paint by ./connection-loader).
 */
export const appStore = createRemoteStore();
