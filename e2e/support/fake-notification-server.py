#!/usr/bin/python3
"""A desktop notification service of the suite's own (org.freedesktop.Notifications on a private session bus).

Chromium on Linux shows web notifications through this service: every Notify, CloseNotification and the
actions each one offers are printed to stdout as JSON lines; a line {"invoke": id, "action": key} on stdin
emits ActionInvoked, which Chromium turns into a trusted notificationclick in the service worker.
"""
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


def emit(record):
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


class Notifications(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)
        self.next_id = 0

    @dbus.service.method(NAME, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["actions", "body"]

    @dbus.service.method(NAME, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("askaway-e2e", "askaway", "1.0", "1.2")

    @dbus.service.method(NAME, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout):
        if replaces_id:
            nid = int(replaces_id)
        else:
            self.next_id += 1
            nid = self.next_id
        keys = [str(actions[i]) for i in range(0, len(actions), 2)]
        labels = [str(actions[i + 1]) for i in range(0, len(actions) - 1, 2)]
        emit({"event": "notify", "id": nid, "replaces": int(replaces_id), "summary": str(summary),
              "body": str(body), "actions": keys, "labels": labels})
        return dbus.UInt32(nid)

    @dbus.service.method(NAME, in_signature="u", out_signature="")
    def CloseNotification(self, nid):
        emit({"event": "close", "id": int(nid)})
        self.NotificationClosed(nid, dbus.UInt32(3))

    @dbus.service.signal(NAME, signature="uu")
    def NotificationClosed(self, nid, reason):
        pass

    @dbus.service.signal(NAME, signature="us")
    def ActionInvoked(self, nid, action_key):
        pass


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = dbus.service.BusName(NAME, bus, do_not_queue=True)
    server = Notifications(bus)
    loop = GLib.MainLoop()

    def on_line(source, condition):
        line = sys.stdin.readline()
        if not line:
            loop.quit()
            return False
        command = json.loads(line)
        server.ActionInvoked(dbus.UInt32(command["invoke"]), command["action"])
        emit({"event": "invoked", "id": command["invoke"], "action": command["action"]})
        return True

    GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, on_line)
    emit({"event": "ready", "name": str(name.get_name())})
    loop.run()


main()
