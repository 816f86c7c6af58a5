# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Release profiles and their switches (docs/emulator-profiles.md), and the
labeled-submirror rule (audit 4.4)."""

import pytest

from svmsim import presets

LABELED = ("metattach: myhost: d13: can't attach labeled submirror to an "
           "unlabeled mirror\n\n")


def test_profiles_are_full_sets_of_switches():
    names = set(presets.PROFILES[presets.DEFAULT_RELEASE])
    assert set(presets.PROFILES) >= {"solaris10", "solaris11",
                                     "illumos-2016"}
    assert names == {"detach_compacts", "disk_label", "metastat_services",
                     "late_services", "ramdisk_cap_basis", "driver_conf_local",
                     "smf_exit_degraded", "label_blocks", "cmp_program",
                     "lofi_nodes", "lofi_labeled"}
    for profile in presets.PROFILES.values():
        assert set(profile) == names


def test_release_and_switch_overrides(make_sim):
    sim = make_sim(release="solaris10")
    st = sim.state()
    assert st["release"] == "solaris10"
    assert st["switches"]["detach_compacts"] is False
    host = dict(presets.preset("article"), release="solaris10",
                switches={"detach_compacts": True})
    st = make_sim(host=host, name="h").state()
    assert (st["release"], st["switches"]["detach_compacts"]) == (
        "solaris10", True)
    assert make_sim(name="d").state()["release"] == "illumos-2016"
    with pytest.raises(SystemExit, match="unknown switch 'compacts'"):
        make_sim(host=dict(host, switches={"compacts": True}), name="x")


def test_detach_leaves_a_hole_without_compaction(make_sim):
    """andreiw/polaris (2006) mirror_ioctl.c mirror_detach keeps the slots;
    attach takes the lowest free slot (audit 4.1, 4.2)."""
    sim = make_sim("spare-disks", release="solaris10")
    sim.ok("metainit d21 1 1 c2d0s0")
    sim.ok("metattach d10 d21")
    sim.sim("tick")
    sim.ok("metadetach d10 d11")
    out = sim.ok("metastat d10")
    assert "    Submirror 1: d12\n" in out and "    Submirror 2: d21\n" in out
    assert "Submirror 0" not in out
    assert sim.ok("metastat -p d10").startswith(
        "d10 -m /dev/md/rdsk/d12 /dev/md/rdsk/d21 1\n")
    sim.ram_stripe()
    sim.ok("metattach d10 d13")             # into the hole: slot 0
    out = sim.ok("metastat d10")
    assert out.startswith("d10: Mirror\n    Submirror 0: d13\n")
    assert sim.ok("metastat -p d10").startswith(
        "d10 -m /dev/md/rdsk/d13 /dev/md/rdsk/d12 /dev/md/rdsk/d21 1\n")


def test_ramdisk_stripe_is_labeled_and_refused_by_unlabeled_mirror(make_sim):
    """Audit 4.4: ramdisk.c p_start = 0, meta_create_stripe MD_LABELED,
    mirror_attach MDE_NO_LABELED_SM."""
    sim = make_sim("article-x86")
    sim.ram_stripe()
    u = sim.units()
    assert (u["d13"]["labeled"], u["d11"]["labeled"],
            u["d10"]["labeled"]) == (True, False, False)
    p = sim.run("metattach d10 d13")
    assert (p.returncode, p.stdout, p.stderr) == (1, "", LABELED)
    assert sim.units()["d13"]["parent"] is None
    # an unlabeled submirror attaches to an unlabeled mirror
    sim.ok("metadetach d10 d12")
    assert sim.ok("metattach d10 d12") == "d10: submirror d12 is attached\n"


def test_mirror_built_with_a_labeled_submirror_is_labeled(make_sim):
    """mirror.c build_submirror: a labeled submirror in metainit -m makes
    the mirror labeled, for good; then labeled stripes attach."""
    sim = make_sim("article-x86")
    sim.sim("close", "d10")
    sim.ok("metaclear d10")
    sim.ram_stripe(size="225m")
    sim.ok("metainit d10 -m d13 d11 d12")
    assert sim.units()["d10"]["labeled"] is True
    sim.ok("metadetach d10 d13")
    assert sim.units()["d10"]["labeled"] is True
    sim.ok("metaclear d13")
    sim.ok("metainit d13 1 1 c5t0d0s0")
    assert sim.ok("metattach d10 d13") == "d10: submirror d13 is attached\n"


def test_article_disks_are_labeled(sim):
    """The article preset: SMI s0 at cylinder 0, so d11/d12/d10 are labeled
    and the article's metattach d10 d13 works."""
    u = sim.units()
    assert (u["d10"]["labeled"], u["d11"]["labeled"]) == (True, True)
    sim.ram_stripe()
    assert sim.ok("metattach d10 d13") == "d10: submirror d13 is attached\n"


@pytest.mark.parametrize("label, starts, labeled", [
    ("smi-cyl0", {}, True),
    ("smi-cyl1", {}, False),
    ("efi", {}, False),
    ("efi", {"0": 0}, True),            # an explicit start wins
])
def test_slice_starts(make_sim, label, starts, labeled):
    host = presets.preset("article-bare")
    host["switches"] = {"disk_label": label}
    host["disks"]["c0d1"].pop("starts")
    if starts:
        host["disks"]["c0d1"]["starts"] = starts
    sim = make_sim(host=host)
    disk = sim.state()["disks"]["c0d1"]
    sim.ok("metainit d11 1 1 c0d1s0")
    assert sim.units()["d11"]["labeled"] is labeled
    expected = 0 if starts else {"smi-cyl0": 0, "smi-cyl1": 15 * 63,
                                 "efi": 256}[label]
    assert disk["starts"]["0"] == expected


def test_replica_slice_at_sector_0_is_not_labeled(make_sim):
    """meta_create_stripe: `(has_db == 0) && (label != 0)`."""
    host = presets.preset("article-bare")
    host["disks"]["c0d1"]["slices"]["7"] = 65520
    host["disks"]["c0d1"]["starts"] = {"0": 0, "7": 0}
    host["replicas"].append({"slice": "c0d1s7", "count": 1})
    sim = make_sim(host=host)
    sim.ok("metainit d17 1 1 c0d1s7")
    sim.ok("metainit d11 1 1 c0d1s0")
    u = sim.units()
    assert (u["d17"]["labeled"], u["d11"]["labeled"]) == (False, True)


def test_ramdisk_cap_basis_and_availrmem(make_sim):
    """Audit 8.3: 25 % of availrmem_initial; kstat shows availrmem."""
    host = dict(presets.preset("article"), availrmem_initial=800 << 20)
    sim = make_sim(host=host)
    assert sim.ok("kstat -p unix:0:system_pages:availrmem") == \
        "unix:0:system_pages:availrmem\t%d\n" % (800 << 20 >> 12)
    assert sim.run("ramdiskadm -a big 201m").returncode == 1
    sim.ok("ramdiskadm -a big 200m")
    assert sim.ok("kstat -p unix:0:system_pages:availrmem") == \
        "unix:0:system_pages:availrmem\t%d\n" % (600 << 20 >> 12)
    host["switches"] = {"ramdisk_cap_basis": "physmem"}
    sim = make_sim(host=host, name="p")
    sim.ok("ramdiskadm -a big 256m")


SITE_SERVICE = """<?xml version='1.0'?>
<!DOCTYPE service_bundle SYSTEM '/usr/share/lib/xml/dtd/service_bundle.dtd.1'>
<service_bundle type='manifest' name='site'>
<service name='site/after-metasync' type='service' version='1'>
<create_default_instance enabled='true'/><single_instance/>
<dependency name='metasync' grouping='require_all' restart_on='none'
 type='service'><service_fmri value='svc:/system/metasync'/></dependency>
<exec_method type='method' name='start' exec=':true' timeout_seconds='60'/>
<exec_method type='method' name='stop' exec=':true' timeout_seconds='60'/>
</service></service_bundle>
"""


def test_late_services_at_boot(make_sim, monkeypatch, tmp_path):
    """rpc/meta (under inetd) and mdmonitor come online after the other
    boot instances (here one that needs only metasync); with the switch
    empty, in repository order like the rest."""
    manifest = tmp_path / "site.xml"
    manifest.write_text(SITE_SERVICE)
    site = "svc:/site/after-metasync:default"
    early = dict(presets.preset("article"),
                 switches={"late_services": []})
    for sim, late in ((make_sim(), True),
                      (make_sim(host=early, name="early"), False)):
        sim.ok("svccfg import %s" % manifest)
        order = startd_order(sim, monkeypatch)
        for fmri in presets.LATE_SERVICES:
            assert (order.index("svc:/" + fmri) > order.index(site)) is late
        assert sim.run("metastat -p").returncode == 0


def startd_order(sim, monkeypatch):
    """The order in which the emulated boot brings instances online."""
    from svmsim import startd
    from svmsim.smf import repo as R
    seen = []
    real_set_state = R.Repo.set_state

    def set_state(self, svc, inst, state, *a, **k):
        if state == "online":
            seen.append(R.inst_fmri(svc, inst))
        return real_set_state(self, svc, inst, state, *a, **k)
    monkeypatch.setattr(R.Repo, "set_state", set_state)
    startd.boot(sim.dir)
    monkeypatch.undo()
    return seen


def test_metastat_fails_until_late_services_are_online(make_sim):
    """During the boot, before inetd brought rpc/meta up, metastat prints
    everything and exits 1 (audit 1.10)."""
    sim = make_sim()
    from svmsim.smf import store
    with store.locked(sim.dir) as repo:
        for fmri in presets.LATE_SERVICES:
            svc, inst = fmri.split(":")
            repo.set_state(svc, inst, "offline")
    assert sim.stat_smf_down("metastat -p d10", down=(
        "system/mdmonitor:default", "network/rpc/meta:default")) \
        .startswith("d10 -m ")
