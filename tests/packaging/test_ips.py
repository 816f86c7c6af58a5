# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The IPS package: `make package` writes build/svmram.p5m for the tree
`make install` makes, with the attributes pkglint asks for, the Python
dependency and bytecode of the target's interpreter (PYTHON), not of the
host that builds it, and in pkgfmt's form.

pkg5's own tools are too heavy for CI; README.md ("Packaging") says how to
run pkglint and pkgfmt by hand.  Here, what can be checked without them:
the attributes, the dependency against PYTHON, and pkgfmt's rules, stated
below and checked on the manifest, and on small manifests whose expected
text is what pkgfmt printed for them (omniosorg/pkg5 b8546e93,
src/util/publish/pkgfmt.py)."""

import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
sys.path.insert(0, os.path.join(REPO, "packaging"))
from p5mformat import Action, manifest_text  # noqa: E402

LIB_MODULES = [os.path.relpath(os.path.join(d, f), os.path.join(REPO, "lib"))
               for d, _, files in os.walk(os.path.join(REPO, "lib", "svmram"))
               for f in files if f.endswith(".py")]


def host_python():
    """An interpreter of this host that an IPS package could name: a
    /usr/bin/python3.N that runs and is 3.N."""
    for path in sorted(glob.glob("/usr/bin/python3.[0-9]*")):
        found = re.fullmatch(r"/usr/bin/python3\.(\d+)", path)
        if not found:
            continue
        ran = subprocess.run([path, "-c", "import sys; print(sys.version_info"
                              "[1])"], capture_output=True, text=True)
        if ran.stdout.strip() == found.group(1):
            return path, found.group(1)
    return None, None


def absent_python():
    """A /usr/bin/python3.N this host does not have: another system's."""
    minor = next(n for n in range(9, 99)
                 if not os.path.exists("/usr/bin/python3.%d" % n))
    return "/usr/bin/python3.%d" % minor, str(minor)


def make_package(directory, *variables):
    if shutil.which("make") is None:
        pytest.fail("make is not installed; .ci/run installs it")
    return subprocess.run(["make", "-s", "package", "PKGDIR=%s" % directory]
                          + list(variables), cwd=REPO, capture_output=True,
                          text=True)


def actions_of(text):
    """(kind, payload, [(attribute, value)...]) of each action, the
    continuation lines joined."""
    joined = re.sub(r" \\\n    ", " ", text)
    out = []
    for line in joined.splitlines():
        words = shlex.split(line)
        payload = words[1] if len(words) > 1 and "=" not in words[1] else ""
        attrs = [tuple(w.split("=", 1)) for w in words[1 + bool(payload):]]
        out.append((words[0], payload, attrs))
    return out


def files_under(root):
    return sorted(os.path.relpath(os.path.join(d, f), root)
                  for d, _, files in os.walk(root) for f in files)


# One worker (make test-suite: --dist loadgroup) builds each package, once.
pytestmark = pytest.mark.xdist_group("ips")


@pytest.fixture(scope="module")
def native(tmp_path_factory):
    """The package for this host's /usr/bin/python3.N."""
    python, minor = host_python()
    if python is None:
        pytest.skip("no /usr/bin/python3.N on this host to build for")
    directory = tmp_path_factory.mktemp("native")
    made = make_package(directory, "PYTHON=%s" % python)
    assert made.returncode == 0, made.stderr
    with open(directory / "svmram.p5m") as p5m:
        return directory, minor, p5m.read()


@pytest.fixture(scope="module")
def cross(tmp_path_factory):
    """The package for a /usr/bin/python3.N this host does not have."""
    python, minor = absent_python()
    directory = tmp_path_factory.mktemp("cross")
    made = make_package(directory, "PYTHON=%s" % python)
    assert made.returncode == 0, made.stderr
    with open(directory / "svmram.p5m") as p5m:
        return directory, minor, p5m.read()


def lines_of(text, kind):
    return [(payload, attrs) for k, payload, attrs in actions_of(text)
            if k == kind]


def set_values(text):
    values = {}
    for _, attrs in lines_of(text, "set"):
        values[dict(attrs)["name"]] = [v for k, v in attrs if k == "value"]
    return values


# The attributes pkglint asks for.

def test_the_package_names_the_smf_service_it_delivers(native):
    """pkglint.manifest011: the SMF service's FMRI, as pkgdepend would
    add it (the service, and no instance: the manifest has none)."""
    _, _, text = native
    assert set_values(text)["org.opensolaris.smf.fmri"] == [
        "svc:/system/svmram"]


def test_the_smf_fmris_follow_the_manifest_s_services_and_instances(
        native, tmp_path):
    """As pkgdepend's smf_manifest flavor: a service's FMRI, each
    <instance>'s, and :default for <create_default_instance>."""
    directory, _, _ = native
    proto = tmp_path / "proto"
    shutil.copytree(directory / "proto", proto)
    xml = proto / "lib/svc/manifest/system/svmram.xml"
    text = xml.read_text()
    text = text.replace(
        '<service name="system/svmram" type="service" version="1">',
        '<service name="system/svmram" type="service" version="1">\n'
        '<create_default_instance enabled="false"/>\n'
        '<instance name="d10" enabled="false"/>', 1)
    xml.chmod(0o644)
    xml.write_text(text)
    made = subprocess.run([sys.executable, "packaging/p5m", str(proto),
                           "/usr"], cwd=REPO, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    assert sorted(set_values(made.stdout)["org.opensolaris.smf.fmri"]) == [
        "svc:/system/svmram", "svc:/system/svmram:d10",
        "svc:/system/svmram:default"]


def test_an_smf_manifest_without_a_service_is_refused(native, tmp_path):
    directory, _, _ = native
    proto = tmp_path / "proto"
    shutil.copytree(directory / "proto", proto)
    xml = proto / "lib/svc/manifest/system/svmram.xml"
    xml.chmod(0o644)
    xml.write_text('<?xml version="1.0"?>\n<service_bundle type="manifest" '
                   'name="svmram"/>\n')
    made = subprocess.run([sys.executable, "packaging/p5m", str(proto),
                           "/usr"], cwd=REPO, capture_output=True, text=True)
    assert made.returncode == 1
    assert made.stdout == ""
    assert made.stderr == (
        "p5m: %s declares no SMF service, so the package cannot name one "
        "(org.opensolaris.smf.fmri); check manifests/svmram.xml.\n" % xml)


def test_the_package_names_its_own_consolidation(native):
    """opensolaris.manifest001.1: svmram is its own consolidation, as
    third-party packages name theirs (VirtualBox: SUNWvbox)."""
    _, _, text = native
    values = set_values(text)
    assert values["org.opensolaris.consolidation"] == ["svmram"]
    assert values["info.classification"] == [
        "org.opensolaris.category.2008:System/Administration and "
        "Configuration"]


# The interpreter: PYTHON, the target's.

def test_the_dependency_follows_python_not_the_build_host(cross):
    """Built for a /usr/bin/python3.N this host lacks: the #! line and the
    dependency are that interpreter's, and no .pyc is shipped, since none
    here can make the target's."""
    directory, minor, text = cross
    depends = [dict(attrs)["fmri"] for _, attrs in lines_of(text, "depend")]
    assert depends == ["pkg:/runtime/python-3%s" % minor,
                       "pkg:/shell/ksh93", "pkg:/storage/svm"]
    with open(directory / "proto/usr/sbin/svmram") as command:
        assert command.readline() == "#!/usr/bin/python3.%s\n" % minor
    assert not [p for p in files_under(directory / "proto")
                if "__pycache__" in p or p.endswith(".pyc")]
    assert "__pycache__" not in text and ".pyc" not in text


def test_built_on_the_target_s_own_python_the_modules_are_compiled(native):
    """PYTHON runs here and is the version its name says: its .pyc files,
    one per module, are the package's."""
    directory, minor, text = native
    depends = [dict(attrs)["fmri"] for _, attrs in lines_of(text, "depend")]
    assert depends[0] == "pkg:/runtime/python-3%s" % minor
    pyc = sorted(dict(attrs)["path"] for _, attrs in lines_of(text, "file")
                 if dict(attrs)["path"].endswith(".pyc"))
    assert pyc == sorted(
        os.path.join("usr/lib/svmram", os.path.dirname(m), "__pycache__",
                     os.path.basename(m)[:-3] + ".cpython-3%s.pyc" % minor)
        for m in LIB_MODULES)


def test_an_interpreter_no_ips_package_delivers_is_refused(tmp_path):
    made = make_package(tmp_path, "PYTHON=/opt/python3.9/bin/python3.9")
    assert made.returncode != 0
    assert ("p5m: the command's #! line names /opt/python3.9/bin/python3.9, "
            "which no IPS package delivers, so the package cannot depend on "
            "it; run make package PYTHON=/usr/bin/python3.N, the target's "
            "interpreter (package runtime/python-3N).\n") in made.stderr
    assert not (tmp_path / "svmram.p5m").exists()


def interpreter(python):
    return subprocess.run(["sh", "packaging/interpreter", python], cwd=REPO,
                          capture_output=True, text=True)


def fake_python(path, version):
    """A stand-in interpreter that reports VERSION."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as script:
        script.write("#!/bin/sh\necho %s\n" % version)
    os.chmod(path, 0o755)
    return path


def test_the_interpreter_compiles_only_as_the_version_its_name_says(
        tmp_path):
    same = fake_python(str(tmp_path / "a/python3.9"), "3.9")
    other = fake_python(str(tmp_path / "b/python3.9"), "3.11")
    assert interpreter(same).stdout == "%s yes\n" % same
    assert interpreter(other).stdout == "%s no\n" % other
    # Not on this host at all: taken as written.
    missing = str(tmp_path / "c/python3.9")
    assert interpreter(missing).stdout == "%s no\n" % missing


@pytest.mark.parametrize("python", ["python3", "/usr/bin/python3",
                                    "python3.9", "/usr/bin/python3.9-config"])
def test_an_interpreter_named_without_its_version_is_refused(
        python, tmp_path):
    """python3 (the Makefile's default) would be this host's choice, not
    the target's."""
    run = interpreter(python)
    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr == (
        "interpreter: PYTHON=%s does not name the target's interpreter by "
        "its versioned path; run make package PYTHON=/usr/bin/python3.N, "
        "e.g. PYTHON=/usr/bin/python3.9.\n" % python)
    made = make_package(tmp_path, "PYTHON=%s" % python)
    assert made.returncode != 0
    assert run.stderr in made.stderr
    assert not os.path.exists(tmp_path / "proto")


# What the manifest delivers.

def test_the_package_delivers_exactly_what_make_install_does(native):
    directory, _, text = native
    proto = str(directory / "proto")
    objects = {}
    for kind, _, attrs in actions_of(text):
        if kind in ("file", "dir"):
            objects[dict(attrs)["path"]] = (kind, dict(attrs))
    files = {p: a for p, (kind, a) in objects.items() if kind == "file"}
    assert sorted(files) == files_under(proto)
    for path, attrs in files.items():
        mode = os.stat(os.path.join(proto, path)).st_mode & 0o777
        assert int(attrs["mode"], 8) == mode, path
        assert attrs["owner"] == "root"
    dirs = sorted(p for p, (kind, _) in objects.items() if kind == "dir")
    assert dirs == sorted(
        ["usr/lib/svmram", "usr/lib/svmram/svmram", "usr/share/doc/svmram"]
        + sorted({os.path.dirname(p) for p in files
                  if p.startswith("usr/lib/svmram/svmram/")}
                 - {"usr/lib/svmram/svmram"}))
    manifest = files["lib/svc/manifest/system/svmram.xml"]
    assert manifest["restart_fmri"] == "svc:/system/manifest-import:default"
    assert manifest["group"] == "sys"
    assert files["lib/svc/method/svmram"]["disable_fmri"] == \
        "svc:/system/svmram:*"
    assert files["usr/share/man/man8/svmram.8"]["facet.doc.man"] == "all"
    # Where svmram(8) MONITORING points.
    for name in ("prometheus-alerts.yml",
                 "check_raid-mdstat-write-mostly.patch"):
        assert files["usr/share/doc/svmram/" + name]["facet.doc"] == "all"
    values = set_values(text)
    assert values["pkg.fmri"] == ["pkg:/system/storage/svmram@0.1.0,5.11"]
    assert values["variant.opensolaris.zone"] == ["global"]
    assert values["pkg.summary"] and values["pkg.description"]
    assert lines_of(text, "license") == [
        ("usr/share/doc/svmram/LICENSE", [("license", "CDDL-1.0")])]


# pkgfmt's form (v2), stated as rules: checked on the manifest, on
# pkgfmt's own output (PKGFMT_CASES) and shown to fail on manifests out of
# that form.

ACTION_GROUPS = {"set": 1, "dir": 2, "file": 2, "license": 4, "depend": 5}
KEYS = {"set": "name", "dir": "path", "file": "path", "license": "license",
        "depend": "fmri"}
# A word of a manifest line, as written (quoted values whole).
WORD = re.compile(r"""(?:[^\s"']|"(?:\\.|[^"\\])*"|'[^']*')+""")


def check_action_order(text):
    """set actions first: pkg.fmri, pkg.summary, pkg.description, the other
    pkg.* names, then the rest by name; then dir and file by path; then
    license; then depend by type and fmri."""
    actions = actions_of(text)
    kinds = [ACTION_GROUPS[kind] for kind, _, _ in actions]
    assert kinds == sorted(kinds)
    names = [dict(attrs)["name"] for kind, _, attrs in actions
             if kind == "set"]
    first = [n for n in ("pkg.fmri", "pkg.summary", "pkg.description")
             if n in names]
    assert names[:len(first)] == first
    rest = names[len(first):]
    assert rest == sorted(rest, key=lambda n: (not n.startswith("pkg."), n))
    paths = [dict(attrs)["path"] for kind, _, attrs in actions
             if kind in ("dir", "file")]
    assert paths == sorted(paths)
    depends = [(dict(a)["type"], dict(a)["fmri"]) for kind, _, a in actions
               if kind == "depend"]
    assert depends == sorted(depends)


def check_attribute_order(text):
    """The key attribute first (depend: type, then fmri); owner, group,
    mode; the others by name, facet.* and variant.* last."""
    for kind, _, attrs in actions_of(text):
        names = [name for name, _ in attrs]
        if kind == "depend":
            assert names[:2] == ["type", "fmri"]
            first = 2
        else:
            assert names[0] == KEYS[kind]
            fixed = [n for n in ("owner", "group", "mode") if n in names]
            assert names[1:1 + len(fixed)] == fixed
            first = 1 + len(fixed)

        def rank(name):
            return (name.startswith("variant."), name.startswith("facet."),
                    name)
        assert names[first:] == sorted(names[first:], key=rank), attrs


def action_lines(text):
    """Each action's lines, as written."""
    actions = []
    for line in text.splitlines():
        if line.startswith("    "):
            actions[-1].append(line)
        else:
            actions.append([line])
    return actions


def check_wrapping(text):
    """An action's attributes fill a line up to 78 characters, 80 for its
    last one; the next goes on a continuation line ("    ", the line
    before ending in " \\") only if it does not fit.  pkgfmt counts a
    continuation line's break as a character (grow: len(a) -
    a.rfind("\\n")), so those lines hold one fewer.  A lone attribute
    longer than that stays on a line of its own.  dir is followed by two
    spaces (added after wrapping), lining up with file."""
    for lines in action_lines(text):
        for index, line in enumerate(lines):
            last = index == len(lines) - 1
            assert line.endswith(" \\") != last, lines
            content = line if last else line[:-2].rstrip()
            continuation = index > 0
            attributes = WORD.findall(content)[0 if continuation else 1:]
            length = len(content) - content.startswith("dir  ")
            if len(attributes) > 1:
                assert length <= (80 if last else 78) - continuation, lines
            if not last:
                following = WORD.findall(lines[index + 1])
                final = index + 1 == len(lines) - 1 and len(following) == 1
                room = (80 if final else 78) - continuation
                assert length + 1 + len(following[0]) > room, lines
    assert not re.search(r"^dir [^ ]", text, re.M)


def check_pkgfmt_form(text):
    check_action_order(text)
    check_attribute_order(text)
    check_wrapping(text)


def test_the_manifest_is_in_pkgfmt_form(native):
    _, _, text = native
    check_pkgfmt_form(text)
    assert ("\ndir  path=usr/lib/svmram owner=root group=bin mode=0755\n"
            in text)
    assert "\nset name=pkg.summary \\\n    value=" in text


OUT_OF_FORM = [
    # An action out of its group.
    "depend type=require fmri=pkg:/a\nset name=pkg.fmri value=x\n",
    # pkg.summary before pkg.fmri.
    "set name=pkg.summary value=x\nset name=pkg.fmri value=x\n",
    # Paths out of order.
    "file path=b owner=root\ndir  path=a owner=root\n",
    # fmri before type.
    "depend fmri=pkg:/a type=require\n",
    # mode before owner; a facet before another attribute.
    "file path=a mode=0444 owner=root\n",
    "file path=a facet.doc=all restart_fmri=x\n",
    # Longer than 80 characters, and wrapped where it fits.
    "file path=%s owner=root group=bin\n" % ("a" * 60),
    "file path=a owner=root \\\n    group=bin\n",
    # dir with one space.
    "dir path=a owner=root\n",
]


@pytest.mark.parametrize("text", OUT_OF_FORM)
def test_the_rules_catch_a_manifest_out_of_pkgfmt_form(text):
    with pytest.raises(AssertionError):
        check_pkgfmt_form(text)


# pkgfmt's own output for small manifests (pkg5 b8546e93), reproduced.

PKGFMT_CASES = [
    ([Action("depend", [("fmri", "pkg:/shell/ksh93"), ("type", "require")]),
      Action("depend", [("fmri", "pkg:/runtime/python-39"),
                        ("type", "require")]),
      Action("license", [("license", "CDDL-1.0")],
             "usr/share/doc/svmram/LICENSE"),
      Action("file", [("path", "usr/share/man/man8/svmram.8"),
                      ("owner", "root"), ("group", "bin"), ("mode", "0444"),
                      ("facet.doc.man", "all")]),
      Action("dir", [("path", "usr/lib/svmram/svmram/a-directory-with-a-"
                      "rather-long-name-for-wrapping"), ("owner", "root"),
                     ("group", "bin"), ("mode", "0755")]),
      Action("file", [("path", "lib/svc/method/svmram"), ("owner", "root"),
                      ("group", "bin"), ("mode", "0555"),
                      ("disable_fmri", "svc:/system/svmram:*"),
                      ("variant.opensolaris.zone", "global"),
                      ("facet.x", "true")]),
      Action("set", [("name", "org.opensolaris.smf.fmri"),
                     ("value", ("svc:/system/svmram",
                                "svc:/system/svmram:default"))]),
      Action("set", [("name", "variant.opensolaris.zone"),
                     ("value", "global")]),
      Action("set", [("name", "info.classification"),
                     ("value", "org.opensolaris.category.2008:System/"
                      "Administration and Configuration")]),
      Action("set", [("name", "pkg.description"),
                     ("value", 'it\'s a "quoted" text')]),
      Action("set", [("name", "pkg.summary"), ("value", "short")]),
      Action("set", [("name", "pkg.fmri"),
                     ("value", "pkg:/system/storage/svmram@0.1.0,5.11")]),
      Action("set", [("name", "pkg.obsolete"), ("value", "false")]),
      Action("set", [("name", "a.very.long.attribute.name.that.goes.on.and"
                      ".on.and.on.and.on.and.on.and.on"), ("value", "x")]),
      Action("set", [("name", "org.opensolaris.consolidation"),
                     ("value", "svmram")]),
      Action("file", [("path", "usr/lib/svmram/svmram/commands/__init__.py"),
                      ("owner", "root"), ("group", "bin"),
                      ("mode", "0444")])],
     """\
set name=pkg.fmri value=pkg:/system/storage/svmram@0.1.0,5.11
set name=pkg.summary value=short
set name=pkg.description value="it's a \\"quoted\\" text"
set name=pkg.obsolete value=false
set \\
    name=a.very.long.attribute.name.that.goes.on.and.on.and.on.and.on.and.on.and.on \\
    value=x
set name=info.classification \\
    value="org.opensolaris.category.2008:System/Administration and Configuration"
set name=org.opensolaris.consolidation value=svmram
set name=org.opensolaris.smf.fmri value=svc:/system/svmram \\
    value=svc:/system/svmram:default
set name=variant.opensolaris.zone value=global
file path=lib/svc/method/svmram owner=root group=bin mode=0555 \\
    disable_fmri=svc:/system/svmram:* facet.x=true \\
    variant.opensolaris.zone=global
dir  \\
    path=usr/lib/svmram/svmram/a-directory-with-a-rather-long-name-for-wrapping \\
    owner=root group=bin mode=0755
file path=usr/lib/svmram/svmram/commands/__init__.py owner=root group=bin \\
    mode=0444
file path=usr/share/man/man8/svmram.8 owner=root group=bin mode=0444 \\
    facet.doc.man=all
license usr/share/doc/svmram/LICENSE license=CDDL-1.0
depend type=require fmri=pkg:/runtime/python-39
depend type=require fmri=pkg:/shell/ksh93
"""),
    ([Action("dir", [("path", "usr/lib/svmram/svmram/a-directory-with-a-"
                      "rather-long-name-for-wrapping-beyond-eighty")]),
      Action("set", [("name", "org.opensolaris.smf.fmri"),
                     ("value", ("svc:/system/svmram",
                                "svc:/system/svmram:default",
                                "svc:/system/svmram:second", "svc:/a/b"))]),
      Action("file", [("path", "usr/lib/svmram/svmram/commands/__init__.py"),
                      ("owner", "root"), ("group", "bin"), ("mode", "0444"),
                      ("abc", "1234567")]),
      Action("file", [("path",
                       "usr/lib/svmram/svmram/commands/__init__.pyc"),
                      ("owner", "root"), ("group", "bin"), ("mode", "0444"),
                      ("ab", "12345")])],
     """\
set name=org.opensolaris.smf.fmri value=svc:/a/b value=svc:/system/svmram \\
    value=svc:/system/svmram:default value=svc:/system/svmram:second
dir  path=usr/lib/svmram/svmram/a-directory-with-a-rather-long-name-for-wrapping-beyond-eighty
file path=usr/lib/svmram/svmram/commands/__init__.py owner=root group=bin \\
    mode=0444 abc=1234567
file path=usr/lib/svmram/svmram/commands/__init__.pyc owner=root group=bin \\
    mode=0444 ab=12345
"""),
]


@pytest.mark.parametrize("actions,expected", PKGFMT_CASES)
def test_the_formatter_writes_what_pkgfmt_writes(actions, expected):
    assert manifest_text(actions) == expected


@pytest.mark.parametrize("expected", [text for _, text in PKGFMT_CASES])
def test_pkgfmt_s_own_output_follows_the_rules(expected):
    check_pkgfmt_form(expected)
