"""The file system as the over-the-air update sees it: paths under one root, written so a power cut never
leaves half a file where a whole one is expected.

Runs on MicroPython and CPython. `Flash("")` is the ESP32's littlefs (paths start with "/"); `Flash(dir)` is a
folder on CPython (virtual nodes, tests); the MicroPython tests use the runtime's own file system. Everything
the update does to flash goes through here (firmware/ota.py), so a test can count or break it.

`write` is atomic: the bytes go to `<path>.new`, then a rename replaces the old file (littlefs and POSIX
rename over an existing file in one step). Streamed files (`create`) are not: the update writes them into a
staging folder that nothing runs from until every file has been checked.
"""

import os

_DIR = 0x4000  # the directory bit of os.stat()[0] (S_IFDIR), the same on both runtimes


class Flash:
    """Files under `root` (no trailing slash; "" is the device's root). Paths passed in start with "/"."""

    def __init__(self, root=""):
        self.root = root
        self.writes = 0  # files written or removed: what wears the chip

    def path(self, p):
        return self.root + p

    def read(self, p):
        """The file's bytes, or None if it does not exist (or cannot be read)."""
        try:
            with open(self.root + p, "rb") as f:
                return f.read()
        except OSError:
            return None

    def write(self, p, data):
        """Replace the file with `data` in one step (a power cut leaves the old one or the new one)."""
        self.makedirs(p[: p.rfind("/")])
        with open(self.root + p + ".new", "wb") as f:
            f.write(data)
        os.rename(self.root + p + ".new", self.root + p)
        self.writes += 1

    def create(self, p):
        """An open file for writing `p` in pieces (its folder is made); the caller closes it."""
        self.makedirs(p[: p.rfind("/")])
        self.writes += 1
        return open(self.root + p, "wb")

    def open(self, p):
        """An open file for reading, or None."""
        try:
            return open(self.root + p, "rb")
        except OSError:
            return None

    def rename(self, a, b):
        os.rename(self.root + a, self.root + b)
        self.writes += 1

    def remove(self, p):
        try:
            os.remove(self.root + p)
        except OSError:
            return
        self.writes += 1

    def is_dir(self, p):
        try:
            return bool(os.stat(self.root + p)[0] & _DIR)
        except OSError:
            return False

    def size(self, p):
        """The file's size in bytes, or -1 if it is not there."""
        try:
            return os.stat(self.root + p)[6]
        except OSError:
            return -1

    def makedirs(self, p):
        """Make folder `p` and its parents (nothing if they exist)."""
        here = ""
        for part in p.split("/"):
            if not part:
                continue
            here = here + "/" + part
            try:
                os.mkdir(self.root + here)
            except OSError:
                pass  # already there

    def rmtree(self, p):
        """Remove folder `p` and everything in it (nothing if it is not there)."""
        if not self.is_dir(p):
            self.remove(p)
            return
        for name in os.listdir(self.root + p):
            self.rmtree(p + "/" + name)
        try:
            os.rmdir(self.root + p)
            self.writes += 1
        except OSError:
            pass

    def free(self):
        """Free bytes on the file system, or None if the port cannot say."""
        try:
            st = os.statvfs(self.root or "/")
        except (OSError, AttributeError):
            return None
        return st[0] * st[4]
