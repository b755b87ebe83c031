"""The page zips a PNG sequence for one download: made here from a folder of files (some of
them binary), zipped by the page's code under Node, and read back with Python's zipfile."""
import os
import subprocess
import sys
import tempfile
import zipfile

node, tool = sys.argv[1], sys.argv[2]
with tempfile.TemporaryDirectory() as scratch:
    folder = os.path.join(scratch, "scan-blelloch-frames")
    os.mkdir(folder)
    files = {f"frame_{i:04d}.png": bytes((i * 37 + k) % 256 for k in range(1000 + i * 501))
             for i in range(5)}
    files["notes.txt"] = b""
    for name, data in files.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    out = os.path.join(scratch, "frames.zip")
    subprocess.run([node, "--no-experimental-fetch", tool, folder, out], check=True)
    with zipfile.ZipFile(out) as z:
        assert z.testzip() is None, "a member's CRC is wrong"
        names = sorted(z.namelist())
        expected = sorted(f"scan-blelloch-frames/{n}" for n in files)
        assert names == expected, f"{names} != {expected}"
        for name, data in files.items():
            assert z.read(f"scan-blelloch-frames/{name}") == data, name
print(f"zip: {len(files)} files read back by Python's zipfile, every byte and CRC the same")
