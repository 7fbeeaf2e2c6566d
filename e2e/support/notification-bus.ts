import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

/** What Chromium asked the desktop to show, as the fake notification server recorded it. */
export interface DesktopNotification {
  id: number;
  /** The id it replaced (a same-tag notification shown again), 0 for a new one. */
  replaces: number;
  summary: string;
  /** The body as the app wrote it (Chromium puts the site's host:port above it; that line is left out). */
  body: string;
  /** Action keys: Chromium's buttons are "0", "1"…, beside its own "default" and "settings". */
  actions: string[];
  labels: string[];
}

export interface NotificationBus {
  /** DBUS_SESSION_BUS_ADDRESS for Chromium. */
  address: string;
  shown: DesktopNotification[];
  closed: number[];
  /** Presses a button (or "default", a tap): Chromium gets ActionInvoked from the desktop. */
  invoke(id: number, action: string): void;
  /** Kills the fake server and the bus, by PID. */
  stop(): Promise<void>;
}

const BUS_CONFIG = (dir: string) => `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=${dir}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;

/**
 * A private D-Bus session bus with a fake org.freedesktop.Notifications on it (./fake-notification-server.py):
 * Chromium on Linux shows web notifications there, and an ActionInvoked from it is a real press of a button,
 * a trusted notificationclick in the service worker, which nothing a page's script dispatches can be.
 */
export async function startNotificationBus(dir: string): Promise<NotificationBus> {
  const config = path.join(dir, 'session-bus.conf');
  await writeFile(config, BUS_CONFIG(dir));
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid, 'SIGTERM');
      await exited;
    }
  };
  try {
    const daemon = spawn('dbus-daemon', [`--config-file=${config}`, '--nofork', '--print-address=1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(daemon);
    const address = await firstLine(daemon, 'dbus-daemon');
    const server = spawn('/usr/bin/python3', [path.join(import.meta.dirname, 'fake-notification-server.py')], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(server);
    const shown: DesktopNotification[] = [];
    const closed: number[] = [];
    let errors = '';
    server.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const ready = new Promise<void>((resolve, reject) => {
      server.once('exit', (code) => reject(new Error(`the fake notification server exited (${code}): ${errors}`)));
      createInterface({ input: server.stdout ?? process.stdin }).on('line', (line) => {
        const record = JSON.parse(line) as { event: string } & DesktopNotification;
        if (record.event === 'ready') resolve();
        if (record.event === 'notify') {
          const { event: _event, ...notification } = record;
          shown.push({ ...notification, body: notification.body.replace(/^[\w.-]+(:\d+)?\n\n/, '') });
        }
        if (record.event === 'close') closed.push(record.id);
      });
    });
    await ready;
    return {
      address,
      shown,
      closed,
      invoke: (id, action) => server.stdin?.write(`${JSON.stringify({ invoke: id, action })}\n`),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function firstLine(child: ChildProcess, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const newline = output.indexOf('\n');
      if (newline >= 0) resolve(output.slice(0, newline).trim());
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it printed its address`)));
  });
}
