"""Installing Luza on a Raspberry Pi: broker config, credentials, systemd units, backups, provisioning.

One source for the appliance (hardware/pi/install.sh), `luza demo` and the tests:
`broker_config` (Mosquitto config, password file and ACL), `credentials` (the passwords), `render`
(every file the installer writes), `backup` (online SQLite backups), `provision` (a new node from USB).
"""
