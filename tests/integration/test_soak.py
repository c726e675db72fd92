"""A short run of scripts/soak.py (8 clients, 20 s of mixed requests with random
disconnects): no response may be lost, no unexpected error may come back, the daemon ends
idle and stops cleanly, and its resident memory stays flat after the warm-up."""
import json
import os
import subprocess
import sys

from daemon_util import TORSIOND
from torsion_client import REPO_ROOT


def test_short_soak(tmp_path):
    out = tmp_path / "soak.json"
    proc = subprocess.run([sys.executable, os.path.join(REPO_ROOT, "scripts", "soak.py"),
                           "--clients", "8", "--duration", "20", "--rss-every", "2",
                           "--torsiond", TORSIOND, "--json", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    r = json.loads(out.read_text())
    assert r["lost"] == 0 and r["errors"] == 0 and r["exit_code"] == 0
    assert r["answered"] > 1000 and r["abandoned"] > 0
    rss = [m for t, m in r["rss_mb"] if t >= 4.0]
    assert max(rss) < 200 and max(rss) - rss[0] < 60, r["rss_mb"]
