import { describe, expect, it } from 'vitest';
import { nginxMissing } from './nginx-balancer';

describe('the load balancer tests without nginx', () => {
  const nowhere = { ASKAWAY_NGINX: '/nonexistent/nginx', PATH: '' };

  it('[R20.58] are skipped outside CI, with what to install', () => {
    expect(nginxMissing(nowhere)).toMatch(/nginx is not installed at ASKAWAY_NGINX=\/nonexistent\/nginx.*nginx-light/);
  });

  it('[R20.58] fail in CI instead of passing by skipping', () => {
    expect(() => nginxMissing({ ...nowhere, CI: 'true' })).toThrow(/nginx is not installed/);
  });

  it('[R20.58] run where ASKAWAY_NGINX names a binary, CI or not', () => {
    expect(nginxMissing({ ASKAWAY_NGINX: process.execPath, CI: 'true' })).toBeUndefined();
  });
});
