# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Fixtures for the SMF stand-in tests: a fresh simdir, a frozen clock in
UTC, and a runner returning (status, stdout, stderr)."""

import os
import time

import pytest

from svmsim import smf

# Tue Nov 14 22:13:20 2023 UTC
T0 = 1700000000


@pytest.fixture
def sim(tmp_path, capsys):
    old_tz = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    clock = {"t": float(T0)}
    smf.set_clock(lambda: clock["t"])

    def run(prog, *args):
        capsys.readouterr()
        rc = smf.main(prog, list(args), str(tmp_path))
        captured = capsys.readouterr()
        return rc, captured.out, captured.err

    run.clock = clock
    run.dir = str(tmp_path)
    yield run
    smf.set_clock(None)
    smf.set_start_hook(None)
    if old_tz is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = old_tz
    time.tzset()


@pytest.fixture
def d10(sim):
    """svc:/system/svmram:d10 with an svmram/size property, refreshed once
    (so it has a running snapshot) and still disabled."""
    assert sim("svccfg", "add", "system/svmram")[0] == 0
    assert sim("svccfg", "-s", "svc:/system/svmram", "add", "d10")[0] == 0
    assert sim("svccfg", "-s", "svc:/system/svmram:d10", "addpg", "svmram",
               "application")[0] == 0
    assert sim("svccfg", "-s", "svc:/system/svmram:d10", "setprop",
               "svmram/size", "=", "astring:", "2g")[0] == 0
    assert sim("svcadm", "refresh", "svc:/system/svmram:d10")[0] == 0
    return sim


@pytest.fixture
def svmram_xml():
    """A small manifest for svc:/system/svmram with instance d10."""
    return SVMRAM_XML


SVMRAM_XML = """<?xml version="1.0"?>
<!DOCTYPE service_bundle SYSTEM "/usr/share/lib/xml/dtd/service_bundle.dtd.1">
<service_bundle type='manifest' name='svmram'>
<service name='system/svmram' type='service' version='1'>
  <dependency name='metasync' grouping='require_all' restart_on='none'
      type='service'>
    <service_fmri value='svc:/system/metasync'/>
  </dependency>
  <exec_method type='method' name='start' exec='/opt/svmram/sbin/svmram'
      timeout_seconds='0'/>
  <exec_method type='method' name='stop' exec=':true' timeout_seconds='2'/>
  <property_group name='startd' type='framework'>
    <propval name='duration' type='astring' value='transient'/>
  </property_group>
  <instance name='d10' enabled='true'>
    <property_group name='svmram' type='application'>
      <propval name='size' type='astring' value='2g'/>
      <property name='disks' type='astring'>
        <astring_list>
          <value_node value='c1t0d0s0'/>
          <value_node value='c1t1d0s0'/>
        </astring_list>
      </property>
    </property_group>
  </instance>
  <stability value='Unstable'/>
  <template>
    <common_name>
      <loctext xml:lang='C'>
        SVM ramdisk submirror restore
      </loctext>
    </common_name>
    <documentation>
      <manpage title='svmram' section='1M' manpath='/usr/share/man'/>
    </documentation>
  </template>
</service>
</service_bundle>
"""
