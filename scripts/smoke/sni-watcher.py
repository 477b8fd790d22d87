#!/usr/bin/env python3
"""A StatusNotifierWatcher, the part of a desktop panel that tray icons register with (KDE, GNOME with the
AppIndicator extension), for the real-app smoke test: Electron's tray registers its StatusNotifierItem here, and
each registration is printed as one JSON line {"service": ..., "path": ...}. Needs python3-gi."""
import json
import sys

from gi.repository import Gio, GLib

XML = """<node><interface name="org.kde.StatusNotifierWatcher">
  <method name="RegisterStatusNotifierItem"><arg type="s" direction="in"/></method>
  <method name="RegisterStatusNotifierHost"><arg type="s" direction="in"/></method>
  <property name="RegisteredStatusNotifierItems" type="as" access="read"/>
  <property name="IsStatusNotifierHostRegistered" type="b" access="read"/>
  <property name="ProtocolVersion" type="i" access="read"/>
  <signal name="StatusNotifierItemRegistered"><arg type="s"/></signal>
  <signal name="StatusNotifierHostRegistered"/>
</interface></node>"""

items = []


def on_call(connection, sender, path, interface, method, params, invocation):
    if method == "RegisterStatusNotifierItem":
        (name,) = params.unpack()
        # the spec allows a service name or an object path (then the sender is the service)
        item = {"service": sender, "path": name} if name.startswith("/") else {"service": name, "path": "/StatusNotifierItem"}
        items.append(item["service"] + item["path"])
        print(json.dumps(item), flush=True)
        connection.emit_signal(None, "/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher",
                               "StatusNotifierItemRegistered", GLib.Variant("(s)", (item["service"] + item["path"],)))
    invocation.return_value(None)


def on_get(connection, sender, path, interface, name):
    if name == "RegisteredStatusNotifierItems":
        return GLib.Variant("as", items)
    if name == "IsStatusNotifierHostRegistered":
        return GLib.Variant("b", True)
    return GLib.Variant("i", 0)


def on_bus(connection, name):
    info = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
    connection.register_object("/StatusNotifierWatcher", info, on_call, on_get, None)


def on_name(connection, name):
    print(json.dumps({"watching": name}), flush=True)


def on_lost(connection, name):
    print(json.dumps({"error": "could not own " + name}), flush=True)
    sys.exit(1)


Gio.bus_own_name(Gio.BusType.SESSION, "org.kde.StatusNotifierWatcher", Gio.BusNameOwnerFlags.NONE, on_bus, on_name, on_lost)
GLib.MainLoop().run()
