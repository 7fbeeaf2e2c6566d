import path from 'node:path';
import { setUpPgTestLogs } from '../store/test-support/pg-test-logs';
import { tempDir } from '../test-support/test-host';
import { SqlitePushStore } from './push-store';
import { PushSubscriptionStore } from './subscription-store';
import { describePushStoreContract } from './test-support/push-store-contract';

const logs = setUpPgTestLogs();

describePushStoreContract(
  'push.sqlite',
  async () => new SqlitePushStore(new PushSubscriptionStore(path.join(tempDir('askaway-push-store-'), 'push.sqlite'))),
);
describePushStoreContract('PostgreSQL', async () => (await logs.open(await logs.freshLogUrl())).pushStore);
