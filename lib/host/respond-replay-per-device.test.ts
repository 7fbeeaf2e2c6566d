import { afterEach, describe, expect, it } from 'vitest';
import { DeviceRespondReplySchema, RESPOND_API_PATH, type RespondCommand } from '../contracts';
import { closeAllClients, connectRemote, connectRuntime } from './test-support/clients';
import { pairDevice, postJson } from './test-support/devices';
import { permissionRequest } from './test-support/fixtures';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

/**
 * A repeat of the winning answer is `accepted` again only for the device that sent it (R10.3): the winner's
 * clientResponseId is in every device's view of the resolution, so another device that reuses it is told the
 * interaction was already resolved, over the socket and over POST /api/respond alike (R14.10).
 */
describe('the idempotent accepted, per device (R10.3, R14.10)', () => {
  async function answeredByPhone() {
    const host = await startTestHost();
    const phone = await pairDevice(host, 'Pocket phone');
    const desk = await pairDevice(host, 'Desk');
    const runtime = await connectRuntime(host.url, TEST_TOKEN);
    const request = permissionRequest();
    await runtime.socket.emitWithAck('announce', request);
    const command: RespondCommand = {
      requestId: request.requestId,
      clientResponseId: 'phone-answer-1',
      response: { action: 'accept' },
    };
    const phoneSocket = await connectRemote(host.url, phone.credential);
    expect(await phoneSocket.socket.emitWithAck('respond', command)).toMatchObject({ ok: true, status: 'accepted' });
    const post = async (credential: string, body: RespondCommand) =>
      DeviceRespondReplySchema.parse(
        (await postJson(`${host.url}${RESPOND_API_PATH}`, body, { Authorization: `Bearer ${credential}` })).json,
      ).ack;
    return { host, phone, desk, phoneSocket, command, post };
  }

  it("[R10.3] another device reusing the winner's clientResponseId gets already-resolved, on the socket", async () => {
    const { host, desk, phoneSocket, command } = await answeredByPhone();
    const deskSocket = await connectRemote(host.url, desk.credential);
    const reuse = { ...command, response: { action: 'decline' } };
    expect(await deskSocket.socket.emitWithAck('respond', reuse)).toMatchObject({
      ok: true,
      status: 'already-resolved',
      resolution: { clientResponseId: 'phone-answer-1', device: { label: 'Pocket phone' } },
    });
    // The device that sent it still gets its replay.
    expect(await phoneSocket.socket.emitWithAck('respond', command)).toMatchObject({ ok: true, status: 'accepted' });
    expect(host.registry.projection.get(command.requestId)?.resolution?.response).toEqual({ action: 'accept' });
  });

  it("[R10.3][R14.10] another device reusing the winner's clientResponseId gets already-resolved, over POST /api/respond", async () => {
    const { host, phone, desk, command, post } = await answeredByPhone();
    expect(await post(desk.credential, command)).toMatchObject({ ok: true, status: 'already-resolved' });
    expect(await post(phone.credential, command)).toMatchObject({ ok: true, status: 'accepted' });
    expect(host.registry.projection.get(command.requestId)?.resolution?.device?.label).toBe('Pocket phone');
  });
});
