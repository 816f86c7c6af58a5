# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""`svmram status --prometheus --output` read by node_exporter's textfile
collector (issue 38, 2): Debian's prometheus-node-exporter, listening on
127.0.0.1 only, with only that collector, scraped a bounded number of
times, then stopped.  svmram_up 0 reaches it when systemd does not
answer, and the collector reads the file without an error, and never a
temporary file a killed run left."""

import os
import shutil
import socket
import subprocess
import time
import urllib.request

import pytest

import fakekernel
import faketree
from svmram.atomic import temporary_prefix

NODE_EXPORTER = shutil.which("prometheus-node-exporter") or \
    shutil.which("node_exporter")
pytestmark = pytest.mark.skipif(
    NODE_EXPORTER is None, reason="node_exporter is not installed "
    "(tests/install-deps installs it)")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def scrape(port):
    """node_exporter's /metrics, waiting at most 10 s for it to listen."""
    deadline = time.monotonic() + 10
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    while True:
        try:
            with direct.open("http://127.0.0.1:%d/metrics" % port,
                             timeout=5) as reply:
                return reply.read().decode()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def samples(text, prefix):
    return sorted(line for line in text.splitlines()
                  if line.startswith(prefix))


def test_node_exporter_reads_what_output_writes(tmp_path):
    from mdcli import set_up_with_a_textfile_directory
    host, textfile = set_up_with_a_textfile_directory(tmp_path)
    prom = str(textfile / "svmram.prom")
    port = free_port()
    exporter = subprocess.Popen(
        [NODE_EXPORTER, "--web.listen-address=127.0.0.1:%d" % port,
         "--collector.disable-defaults", "--collector.textfile",
         "--collector.textfile.directory=%s" % textfile],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # a run killed while writing leaves its temporary file, half written:
    # a name the collector never reads (atomic.py)
    (textfile / (temporary_prefix(prom) + "killed01")).write_text(
        "svmram_up{\n")
    try:
        rc, _, _, _ = host.svmram("status", "--prometheus", "--output", prom)
        assert rc == 0
        metrics = scrape(port)
        assert samples(metrics, "svmram_") == [
            'svmram_build_info{version="0.1.0"} 1',
            'svmram_disks_current{device="md0",target="md0"} 2',
            'svmram_disks{device="md0",target="md0"} 2',
            'svmram_ram_copy_sync_ratio{device="md0",target="md0"} 1',
            'svmram_serving_from_ram{device="md0",target="md0"} 1',
            "svmram_up 1"]
        assert "node_textfile_scrape_error 0" in metrics.splitlines()
        faketree.write(host.root, "/" + fakekernel.FAIL,
                       "systemctl is-active")
        rc, _, _, _ = host.svmram("status", "--prometheus", "--output", prom)
        assert rc == 1
        metrics = scrape(port)
        assert samples(metrics, "svmram_") == [
            'svmram_build_info{version="0.1.0"} 1', "svmram_up 0"]
        assert "node_textfile_scrape_error 0" in metrics.splitlines()
        # the one file, the temporary gone (1.5.0 names it by full path)
        mtimes = samples(metrics, "node_textfile_mtime_seconds{")
        assert len(mtimes) == 1 and mtimes[0].startswith(
            'node_textfile_mtime_seconds{file="%s"} ' % prom), mtimes
    finally:
        exporter.terminate()
        try:
            exporter.wait(timeout=10)
        except subprocess.TimeoutExpired:
            exporter.kill()
            exporter.wait()
        exporter.stderr.close()
