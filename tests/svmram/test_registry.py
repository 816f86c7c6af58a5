# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""registry.py asks each backend whether this host is its own (issue 29
section 2), and `svmram status` given no target lists the targets of
every backend that says yes."""

import argparse
import json
import sys

import pytest

from svmram import registry
from svmram.backend import Problems, Status
from svmram.errors import UsageError

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("platform, owners", [
    ("linux", ["md"]), ("sunos5", ["svm"]), ("freebsd14", [])])
def test_each_backend_is_asked_about_the_real_root(monkeypatch, platform,
                                                   owners):
    monkeypatch.setattr(sys, "platform", platform)
    assert registry.host_owners("/") == owners


def test_an_emulated_root_is_md_s_with_a_sys_block_else_svm_s(tmp_path):
    assert registry.host_owners(str(tmp_path)) == ["svm"]
    (tmp_path / "sys" / "block").mkdir(parents=True)
    assert registry.host_owners(str(tmp_path)) == ["md"]


def test_the_backend_classes_answer_as_their_names_modules(tmp_path):
    from svmram.md.backend import MdBackend
    from svmram.svm.backend import SvmBackend
    assert (SvmBackend.owns_host(str(tmp_path)),
            MdBackend.owns_host(str(tmp_path))) == (True, False)


def test_a_host_no_backend_owns_is_refused(monkeypatch):
    monkeypatch.setattr(sys, "platform", "freebsd14")
    with pytest.raises(UsageError) as refused:
        registry.for_host("/")
    assert refused.value.message == (
        "none of svmram's backends (svm, md) works on this system "
        "(freebsd14)")
    # The parser still gets options, so that --help works anywhere.
    assert type(registry.for_arguments(["status"], "/")).__name__ == \
        "SvmBackend"


def test_every_owning_backend_is_loaded_in_the_registry_s_order(
        monkeypatch, tmp_path):
    monkeypatch.setattr(registry, "host_owners", lambda root: ["md", "svm"])
    assert [type(b).__name__ for b in registry.for_hosts(str(tmp_path))] \
        == ["MdBackend", "SvmBackend"]


class _Fake:
    """A backend with one target, for status with several backends."""

    def __init__(self, backend, status):
        self.words, self.status = backend.words, status
        self.deadline, self.asked = backend.deadline, []

    def statuses(self, target=None):
        self.asked.append(target)
        return [(self.status, Problems(disks=("x",)))]

    def status_report(self, target=None):
        return self.statuses(target), []

    def why_nothing_set_up(self):
        return None

    def target(self, text):
        raise UsageError("not mine")


def test_status_without_a_target_lists_every_owning_backend(monkeypatch,
                                                            capsys):
    from svmram.commands import common, status as command
    from svmram.md.backend import MdBackend
    from svmram.svm.backend import SvmBackend
    md = _Fake(MdBackend("/"), Status.unconfigured("md0", "no record"))
    svm = _Fake(SvmBackend("/"), Status.unconfigured("d10", "no record"))
    monkeypatch.setattr(common, "host_backends", lambda: [md, svm])
    args = argparse.Namespace(target=None, json=False, scripted=False,
                              fields=None, parsable=False, problems=False,
                              quiet=False, nagios=False, prometheus=False)
    assert command.run(args) == 4
    assert capsys.readouterr().out == (
        "md0: NOT serving reads from RAM: no record\n"
        "d10: NOT serving reads from RAM: no record\n")
    args.nagios = True
    assert command.run(args) == 2
    assert capsys.readouterr().out == (
        "SVMRAM CRITICAL - md0: no record; d10: no record | "
        "serving=0;;;0;2\n")
    md.statuses = svm.statuses = lambda target=None: []
    args.nagios = False
    assert command.run(args) == 0
    assert capsys.readouterr().out == (
        "No array is set up for reads from RAM.\n"
        "No mirror is set up for reads from RAM.\n")


def test_status_without_a_target_reads_each_backend_in_a_context_of_its_own(
        monkeypatch, tmp_path):
    """status given no target builds one run context per backend it reads,
    as every other command builds one (issue 29 section 1): the backend,
    its words and deadline, the host root, no target."""
    from svmram.commands import common, status as command
    from svmram.md.backend import MdBackend
    from svmram.svm.backend import SvmBackend
    md = _Fake(MdBackend("/"), Status.unconfigured("md0", "no record"))
    svm = _Fake(SvmBackend("/"), Status.unconfigured("d10", "no record"))
    monkeypatch.setattr(common, "host_backends", lambda: [md, svm])
    monkeypatch.setenv("SVMRAM_ROOT", str(tmp_path))
    contexts = common.host_contexts()
    assert [(c.backend, c.words, c.deadline, c.root, c.target, c.name)
            for c in contexts] == [
        (md, md.words, md.deadline, str(tmp_path), None, None),
        (svm, svm.words, svm.deadline, str(tmp_path), None, None)]
    assert contexts[0].progress is not contexts[1].progress
    assert [(backend, [s.target for s, _ in pairs], left_out)
            for backend, pairs, left_out in command.read_statuses()] == [
        (md, ["md0"], []), (svm, ["d10"], [])]
    assert (md.asked, svm.asked) == ([None], [None])


@pytest.mark.parametrize("target, script", [
    ("d10", "ksh script"), ("/dev/md0", "POSIX sh script")])
def test_the_dry_run_help_names_the_backend_s_kind_of_script(
        target, script):
    """-n prints the target's backend's script: SVM's is ksh93, md's POSIX
    sh; the neutral commands take the word from the backend (issue 29
    section 2)."""
    from svmram import cli
    for command in ("setup", "teardown", "restore", "stop"):
        parser = cli.build_parser([command, target])
        sub = parser._subparsers._group_actions[0].choices[command]
        assert " ".join(sub.format_help().split()).count(
            "print the plan as a %s; change nothing" % script) == 1


def test_the_help_names_the_targets_of_every_backend_the_registry_holds(
        monkeypatch):
    """cli.py's description and summaries take each backend's noun and
    phrase from its names module (registry.described), so that they
    hold no backend word and a third backend is named too."""
    from svmram import cli
    assert registry.described() == [
        ("mirror", "a mirror (Solaris Volume Manager)"),
        ("array", "a RAID-1 array (Linux md)")]
    parser = cli.build_parser([])
    assert parser.description == (
        "Serve the reads of a mirror (Solaris Volume Manager) or of a "
        "RAID-1 array (Linux md) from a copy in RAM, and keep it that way "
        "across reboots.")
    subcommands = parser._subparsers._group_actions[0].choices
    assert subcommands["setup"].description == \
        "add a copy in RAM to a mirror or array and read from it"
    assert cli.every_target() == "mirrors or arrays"
    monkeypatch.setattr(registry, "described", lambda: [
        ("mirror", "a mirror (SVM)"), ("array", "an array (md)"),
        ("volume", "a logical volume (LVM)")])
    parser = cli.build_parser([])
    assert parser.description.startswith(
        "Serve the reads of a mirror (SVM) or of an array (md) or of a "
        "logical volume (LVM) from a copy in RAM")
    assert parser._subparsers._group_actions[0].choices[
        "status"].description == \
        "show whether each configured mirror, array or volume reads from RAM"
    assert cli.every_target() == "mirrors, arrays or volumes"


# --- no two backends claim one name (issue 37 section 5) ---------------------

NAMES = (
    # SVM's: dN (N < 8192), and a disk set's SET/dN (meta_name.c
    # parse_device; a set name is 1 to 50 printable characters but " *?/",
    # meta_set_hst.c meta_set_checkname)
    "d0", "d10", "d8191", "d8192", "blue/d10", "vg/d10", "1set/d10",
    "a.b-c+d/d0", "x" * 50 + "/d10", "x" * 51 + "/d10", "blue/d8192",
    "bl ue/d10", "bl*e/d10", "a/b/d10", "/dev/md/dsk/d10",
    # md's: mdN, /dev/mdN, /dev/md/NAME
    "md0", "/dev/md0", "/dev/md127", "/dev/md/data", "/dev/md/d10",
    "md/d10", "/dev/md/vg",
    # a logical volume's, which a future backend would claim
    "vg/lv", "vg0/root", "/dev/vg/lv", "/dev/mapper/vg-lv",
    # nobody's
    "", "d", "D10", "d10x", "md", "mdx", "/dev/sda")


def hosts(tmp_path):
    svm = tmp_path / "svm"
    md = tmp_path / "md"
    svm.mkdir()
    (md / "sys" / "block").mkdir(parents=True)
    return {"svm": str(svm), "md": str(md)}


def test_no_two_backends_claim_one_name(tmp_path):
    import importlib
    for host, root in hosts(tmp_path).items():
        for text in NAMES:
            claimants = [name for name in registry.REGISTRY if
                         importlib.import_module(
                             registry.SYNTAX[name]).owns(text, root)]
            assert len(claimants) <= 1, (host, text, claimants)


def test_svm_claims_a_disk_set_name_only_on_its_own_host(tmp_path):
    roots = hosts(tmp_path)
    claimed = {host: [text for text in NAMES
                      if registry.owner(text, root) == "svm"]
               for host, root in roots.items()}
    assert claimed["svm"] == [
        "d0", "d10", "d8191", "blue/d10", "vg/d10", "1set/d10",
        "a.b-c+d/d0", "x" * 50 + "/d10", "md/d10"]
    assert claimed["md"] == ["d0", "d10", "d8191"]
    # vg/d10 on Linux is nobody's: md, the host's backend, refuses it in
    # its own words
    assert registry.owner("vg/d10", roots["md"]) is None
    assert type(registry.for_target("vg/d10", roots["md"])).__name__ == \
        "MdBackend"


def test_a_name_two_backends_claim_is_refused(monkeypatch):
    """The registry gives a doubly claimed name to neither (a third
    backend whose syntax overlapped would be caught here, not misrouted
    to the first)."""
    import types
    lvm = types.SimpleNamespace(owns=lambda text, root="/": "/" in text,
                                owns_host=lambda root="/": False)
    monkeypatch.setattr(registry, "REGISTRY", dict(
        registry.REGISTRY, lvm="x:y"))
    monkeypatch.setattr(registry, "SYNTAX", dict(registry.SYNTAX,
                                                 lvm="fake_lvm_names"))
    monkeypatch.setitem(sys.modules, "fake_lvm_names", lvm)
    assert registry.owner("vg/lv") == "lvm"
    with pytest.raises(UsageError) as refused:
        registry.owner("/dev/md0")
    assert refused.value.message == (
        "'/dev/md0' is a name in the syntax of several of svmram's "
        "backends (md, lvm)")


class _Checking:
    """A backend whose check gives one host check and one verdict."""

    def __init__(self, backend, check, verdict):
        self.words, self.deadline = backend.words, backend.deadline
        self.check_predictions = backend.check_predictions
        self.result, self.asked = ([check], [verdict]), []

    def check(self, name):
        self.asked.append(name)
        return self.result


def test_check_without_a_target_asks_every_owning_backend(monkeypatch,
                                                          capsys):
    """check given no target checks the targets of every backend whose
    host this is, not only the first's (issue 37 section 5)."""
    from svmram.commands import check as command, common
    from svmram.md.backend import MdBackend
    from svmram.svm.backend import SvmBackend
    md = _Checking(MdBackend("/"), {"verdict": "ok", "check": "kernel",
                                    "detail": "Linux 6.12"},
                   {"mirror": "md0", "verdict": "ready", "detail": "fine"})
    svm = _Checking(SvmBackend("/"), {"verdict": "ok", "check": "svm",
                                      "detail": "replicas"},
                    {"mirror": "d10", "verdict": "refused", "detail": "no"})
    monkeypatch.setattr(common, "host_backends", lambda: [md, svm])
    args = argparse.Namespace(target=None, json=False)
    assert command.run(args) == 3
    assert capsys.readouterr().out == (
        "ok       kernel    Linux 6.12\n"
        "md0: ready: fine\n"
        "ok       svm       replicas\n"
        "d10: refused: no\n")
    assert (md.asked, svm.asked) == ([None], [None])
    args.json = True
    assert command.run(args) == 3
    report = json.loads(capsys.readouterr().out)
    assert [c["check"] for c in report["checks"]] == ["kernel", "svm"]
    assert [v["mirror"] for v in report["mirrors"]] == ["md0", "d10"]
