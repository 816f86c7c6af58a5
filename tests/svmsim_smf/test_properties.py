# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svccfg and svcprop: property round trips, snapshots, types, errors."""

import os
INST = "svc:/system/svmram:d10"


def cfg(sim, *args):
    return sim("svccfg", "-s", INST, *args)


def test_setprop_needs_refresh_to_reach_running_snapshot(d10):
    sim = d10
    assert sim("svcprop", "-p", "svmram/size", INST) == (0, "2g\n", "")
    assert cfg(sim, "setprop", "svmram/size", "=", "astring:", "4g") == \
        (0, "", "")
    # svcprop reads the running snapshot by default ...
    assert sim("svcprop", "-p", "svmram/size", INST) == (0, "2g\n", "")
    # ... -c and -C the current (editing) properties.
    assert sim("svcprop", "-c", "-p", "svmram/size", INST) == \
        (0, "4g\n", "")
    assert sim("svcprop", "-C", "-p", "svmram/size", INST) == \
        (0, "4g\n", "")
    assert sim("svcadm", "refresh", "svmram:d10") == (0, "", "")
    assert sim("svcprop", "-p", "svmram/size", INST) == (0, "4g\n", "")


def test_without_running_snapshot_current_values_are_read(sim):
    # svcprop falls back to the current properties when the instance has
    # never been refreshed or started (svcprop.c get_snapshot()).
    sim("svccfg", "add", "system/svmram")
    sim("svccfg", "-s", "system/svmram", "add", "d20")
    sim("svccfg", "-s", "system/svmram:d20", "addpg", "svmram",
        "application")
    sim("svccfg", "-s", "system/svmram:d20", "setprop", "svmram/size", "=",
        "astring:", "1g")
    assert sim("svcprop", "-p", "svmram/size", "svmram:d20") == \
        (0, "1g\n", "")
    # -s running insists on the snapshot.
    assert sim("svcprop", "-s", "running", "-p", "svmram/size",
               "svmram:d20") == (1, "", "svcprop: No such snapshot.\n")


def test_service_level_groups_are_composed(d10):
    sim = d10
    assert sim("svccfg", "-s", "svc:/system/svmram", "addpg", "defaults",
               "application") == (0, "", "")
    assert sim("svccfg", "-s", "svc:/system/svmram", "setprop",
               "defaults/policy", "=", "astring:", "first") == (0, "", "")
    assert sim("svccfg", "-s", "svc:/system/svmram", "setprop",
               "svmram/size", "=", "astring:", "1g") == \
        (1, "", 'svccfg: No such property group "svmram".\n')
    # Service-level changes reach the instance's running view on refresh.
    assert sim("svcprop", "-p", "defaults/policy", INST)[0] == 1
    sim("svcadm", "refresh", INST)
    assert sim("svcprop", "-p", "defaults/policy", INST) == \
        (0, "first\n", "")
    # -C: the instance's own groups only, no composition.
    assert sim("svcprop", "-C", "-p", "defaults/policy", INST) == \
        (1, "", "svcprop: Couldn't find property group `defaults' for "
                "instance `svc:/system/svmram:d10'.\n")
    # The service itself: its current groups.
    assert sim("svcprop", "-p", "defaults/policy", "svc:/system/svmram") == \
        (0, "first\n", "")
    # An instance-level group shadows the service's, property by property.
    cfg(sim, "addpg", "defaults", "application")
    cfg(sim, "setprop", "defaults/extra", "=", "count:", "3")
    sim("svcadm", "refresh", INST)
    assert sim("svcprop", "-p", "defaults", INST) == \
        (0, "defaults/extra count 3\ndefaults/policy astring first\n", "")


def test_svcprop_forms(d10):
    sim = d10
    cfg(sim, "setprop", "svmram/count", "=", "count:", "7")
    cfg(sim, "setprop", "svmram/on", "=", "boolean:", "1")
    sim("svcadm", "refresh", INST)
    out = "svmram/size astring 2g\nsvmram/count count 7\n" \
          "svmram/on boolean true\n"
    assert sim("svcprop", "-p", "svmram", INST) == (0, out, "")
    assert sim("svcprop", "-t", "-p", "svmram/on", INST) == \
        (0, "svmram/on boolean true\n", "")
    assert sim("svcprop", "-f", "-p", "svmram/on", INST) == \
        (0, "svc:/system/svmram:d10/:properties/svmram/on boolean true\n",
         "")
    # Whole entity: every group, then the nonpersistent ones (restarter).
    rc, o, e = sim("svcprop", INST)
    assert rc == 0 and e == ""
    assert o.startswith(out)
    assert "restarter/state astring disabled\n" in o
    # Two -p properties: values only, one line each.
    assert sim("svcprop", "-p", "svmram/size", "-p", "svmram/count",
               INST) == (0, "2g\n7\n", "")
    # Mixed pg and pg/prop -p arguments switch types on.
    assert sim("svcprop", "-p", "svmram/size", "-p", "general",
               INST)[1].startswith("svmram/size astring 2g\n")
    # A property FMRI as operand.
    assert sim("svcprop", INST + "/:properties/svmram/count") == \
        (0, "7\n", "")


def test_restarter_state_via_svcprop(d10):
    sim = d10
    assert sim("svcprop", "-p", "restarter/state", INST) == \
        (0, "disabled\n", "")
    sim("svcadm", "enable", INST)
    assert sim("svcprop", "-p", "restarter/state", INST) == \
        (0, "online\n", "")


def test_values_and_escaping(d10):
    sim = d10
    assert cfg(sim, "setprop", "svmram/disks", "=", "astring:",
               '"x;y"') == (0, "", "")
    assert sim("svcprop", "-c", "-p", "svmram/disks", INST) == \
        (0, 'x\\;y\n', "")
    assert cfg(sim, "setprop", "svmram/empty", "=", "astring:",
               '""') == (0, "", "")
    assert sim("svcprop", "-c", "-p", "svmram/empty", INST) == \
        (0, '""\n', "")
    # A single quoted value with blanks, as a script passes it.
    assert cfg(sim, "setprop", "svmram/label", "=", "astring:",
               '"fast mirror"') == (0, "", "")
    assert sim("svcprop", "-c", "-p", "svmram/label", INST) == \
        (0, "fast\\ mirror\n", "")
    # Quotes and backslashes inside a quoted string.
    assert cfg(sim, "setprop", "svmram/q", "=", "astring:",
               '"say \\"hi\\" \\\\ bye"') == (0, "", "")
    assert sim("svcprop", "-c", "-p", "svmram/q", INST) == \
        (0, 'say\\ \\"hi\\"\\ \\\\\\ bye\n', "")
    # setprop's list form is not emulated: svmram sets one value.
    assert cfg(sim, "setprop", "svmram/ns", "=", "count:", "(1", "2", "3)") \
        == (1, "", "svccfg: Syntax error.\n")


def test_types_are_validated(d10):
    sim = d10
    bad = [
        ("boolean:", "maybe", 'Invalid "boolean" value "maybe".'),
        ("count:", "12x", 'Invalid "count" value "12x".'),
        ("count:", "", 'Invalid "count" value "".'),
        ("integer:", "ten", 'Invalid "integer" value "ten".'),
        ("integer:", "99999999999999999999",
         'Invalid "integer" value "99999999999999999999".'),
        ("time:", "1.1234567890", 'Invalid "time" value "1.1234567890".'),
    ]
    for ty, val, msg in bad:
        assert cfg(sim, "setprop", "svmram/x", "=", ty, '"%s"' % val) == \
            (1, "", "svccfg: %s\n" % msg), (ty, val)
    good = [("boolean:", "t", "true"), ("boolean:", "0", "false"),
            ("count:", "0x10", "16"), ("count:", "010", "8"),
            ("integer:", "-5", "-5"), ("time:", "12.5", "12.500000000")]
    for ty, val, shown in good:
        assert cfg(sim, "setprop", "svmram/x", "=", ty, val) == (0, "", "")
        assert sim("svcprop", "-c", "-p", "svmram/x", INST)[1] == \
            shown + "\n"
    assert cfg(sim, "setprop", "svmram/x", "=", "astring", "2g") == \
        (1, "", 'svccfg: Unknown type "astring".\n')
    assert cfg(sim, "setprop", "svmram/x", "=", "float:", "2") == \
        (1, "", 'svccfg: Unknown type "float:".\n')
    assert cfg(sim, "setprop", "svmram/new", "=", "2g") == \
        (1, "", "svccfg: Type required for new properties.\n")
    # An existing property keeps its type when none is given.
    assert cfg(sim, "setprop", "svmram/size", "=", "3g") == (0, "", "")
    cfg(sim, "setprop", "svmram/n", "=", "count:", "1")
    assert cfg(sim, "setprop", "svmram/n", "=", "-") == \
        (1, "", 'svccfg: Invalid "count" value "-".\n')


def test_svccfg_errors(d10):
    sim = d10
    assert cfg(sim, "setprop", "nopg/x", "=", "astring:", "1") == \
        (1, "", 'svccfg: No such property group "nopg".\n')
    assert cfg(sim, "setprop", "svmram", "=", "astring:", "1") == \
        (1, "", "svccfg: Property names must contain a `/'.\n")
    assert cfg(sim, "setprop", "svmram/1x", "=", "astring:", "1") == \
        (1, "", 'svccfg: Invalid property name "1x".\n')
    assert cfg(sim, "setprop", "svmram/x", "astring:", "1") == \
        (1, "", "svccfg: Syntax error.\n")
    assert cfg(sim, "delprop", "svmram/nope") == \
        (1, "", "svccfg: No such property svmram/nope.\n")
    assert cfg(sim, "delprop", "nopg") == \
        (1, "", 'svccfg: No such property group "nopg".\n')
    assert cfg(sim, "addpg", "svmram", "application") == \
        (1, "", "svccfg: Property group already exists.\n")
    assert cfg(sim, "addpg", "9bad", "application") == \
        (1, "", "svccfg: Name, type, or flags are invalid.\n")
    assert cfg(sim, "frobnicate", "x") == \
        (1, "", 'svccfg: Unknown command "frobnicate".\n')
    assert sim("svccfg", "setprop", "a/b", "=", "astring:", "1") == \
        (1, "", "svccfg: An entity is not selected.\n")
    assert sim("svccfg", "-s", "svc:/system/nosuch", "delprop", "a/b") == \
        (1, "", "svccfg: Pattern 'svc:/system/nosuch' doesn't match any "
                "instances or services\n")
    assert sim("svccfg", "-s", "svc:/system/svmram", "add", "d10") == \
        (1, "", "svccfg: Instance already exists.\n")
    assert sim("svccfg", "-s", "svc:/system/svmram", "add", "1x") == \
        (1, "", "svccfg: Invalid name.\n")
    assert sim("svccfg", "add", "system/svmram") == \
        (1, "", "svccfg: Service already exists.\n")
    assert sim("svccfg", "-s", INST, "add", "x") == \
        (1, "", "svccfg: Cannot add entities to an instance.\n")
    assert sim("svccfg", "-q") == \
        (2, "", "svccfg: illegal option -- q\n"
                "Usage:\tsvccfg [-v] [-s FMRI] [-f file]\n"
                "\tsvccfg [-v] [-s FMRI] <command> [args]\n")
    # Not emulated: what svmram never runs.
    assert sim("svccfg", "-s", INST, "listprop") == \
        (1, "", "svccfg: listprop is not supported by the svmsim "
                "emulator.\n")
    assert sim("svccfg")[0] == 2


def test_select_with_abbreviations(d10):
    sim = d10
    for fmri in ("svmram:d10", "system/svmram:d10", "d10", INST):
        assert sim("svccfg", "-s", fmri, "setprop", "svmram/size", "=",
                   fmri.replace("/", "_").replace(":", "-")) == (0, "", "")
    sim("svccfg", "-s", "svc:/system/svmram", "add", "d11")
    # A glob that does not start with "*" or "svc:" gets "svc:/" prepended.
    assert sim("svccfg", "-s", "svmram:d1*", "delprop", "a/b") == \
        (1, "", "svccfg: Pattern 'svc:/svmram:d1*' doesn't match any "
                "instances or services\n")
    assert sim("svccfg", "-s", "system/svmram:d1*", "delprop", "a/b") == \
        (1, "", "svccfg: Pattern 'svc:/system/svmram:d1*' matches multiple "
                "instances:\n\tsvc:/system/svmram:d11\n"
                "\tsvc:/system/svmram:d10\n")


def test_delprop(d10):
    sim = d10
    cfg(sim, "setprop", "svmram/extra", "=", "astring:", "y")
    assert cfg(sim, "delprop", "svmram/extra") == (0, "", "")
    assert sim("svcprop", "-c", "-p", "svmram/extra", INST)[0] == 1
    assert cfg(sim, "delprop", "svmram") == (0, "", "")
    assert sim("svcprop", "-c", "-p", "svmram", INST) == \
        (1, "", "svcprop: Couldn't find property group `svmram' for "
                "instance `svc:/system/svmram:d10'.\n")
    # Still in the running snapshot until refreshed.
    assert sim("svcprop", "-p", "svmram/size", INST) == (0, "2g\n", "")


def test_svcprop_errors(d10):
    sim = d10
    assert sim("svcprop", "-p", "svmram/nope", INST) == \
        (1, "", "svcprop: Couldn't find property `svmram/nope' for "
                "instance `svc:/system/svmram:d10'.\n")
    assert sim("svcprop", "-q", "-p", "svmram/nope", INST) == (1, "", "")
    assert sim("svcprop", "-q", "-p", "svmram/size", INST) == (0, "", "")
    assert sim("svcprop", "-p", "svmram/size", "svc:/system/nosuch:x") == \
        (1, "", "svcprop: Pattern 'svc:/system/nosuch:x' doesn't match "
                "any entities\n")
    assert sim("svcprop", "-q", "nosuch") == (1, "", "")
    usage = ("Usage: svcprop [-fqtv] [-C | -c | -s snapshot] [-z zone] "
             "[-p [name/]name]... \n"
             "         {FMRI | pattern}...\n"
             "       svcprop -w [-fqtv] [-z zone] [-p [name/]name] "
             "{FMRI | pattern}\n")
    assert sim("svcprop") == (2, "", usage)
    assert sim("svcprop", "-p", "a/b/c", INST) == \
        (2, "", "svcprop: -p argument `a/b/c' has too many components.\n" +
         usage)
    assert sim("svcprop", "-p", "1a", INST) == \
        (2, "", "svcprop: Invalid component name `1a'.\n")
    assert sim("svcprop", "-c", "-C", INST) == (2, "", usage)
    assert sim("svcprop", "-s", "initial", "-p", "svmram/size", INST) == \
        (1, "", "svcprop: No such snapshot.\n")


def test_svcprop_multiple_matches_print_fmris(d10):
    sim = d10
    sim("svccfg", "-s", "svc:/system/svmram", "add", "d11")
    sim("svccfg", "-s", "svc:/system/svmram:d11", "addpg", "svmram",
        "application")
    sim("svccfg", "-s", "svc:/system/svmram:d11", "setprop", "svmram/size",
        "=", "astring:", "1g")
    rc, o, e = sim("svcprop", "-p", "svmram/size", "svmram")
    assert (rc, e) == (0, "")
    assert sorted(o.splitlines()) == [
        "svc:/system/svmram:d10/:properties/svmram/size astring 2g",
        "svc:/system/svmram:d11/:properties/svmram/size astring 1g"]


def test_instance_creation_and_deletion(d10):
    sim = d10
    assert sim("svcs", "-H", INST) == \
        (0, "disabled       22:13:20 svc:/system/svmram:d10\n", "")
    sim("svcadm", "enable", INST)
    assert sim("svccfg", "delete", INST) == \
        (1, "", "svccfg: Instance svc:/system/svmram:d10 may be running.  "
                "Use delete -f if it is not.\n")
    assert sim("svccfg", "delete", "-f", INST) == (0, "", "")
    assert sim("svcs", INST) == \
        (1, "STATE          STIME    FMRI\n",
         "svcs: Pattern 'svc:/system/svmram:d10' doesn't match any "
         "instances\n")
    sim("svccfg", "-s", "system/svmram", "add", "d10")
    assert sim("svcprop", "-c", "-p", "svmram/size", INST)[0] == 1
    assert sim("svccfg", "-s", "system/svmram", "delete", "d10") == \
        (0, "", "")
    assert sim("svccfg", "delete", "svc:/system/svmram") == (0, "", "")
    assert sim("svccfg", "delete", "svc:/system/svmram") == \
        (1, "", "svccfg: Pattern 'svc:/system/svmram' doesn't match any "
                "instances or services\n")


# --- svccfg -f FILE (svccfg_main.c main, svccfg_engine.c engine_source) -----

RECORD_FILE = """select svc:/system/svmram
add d20
select d20
addpg svmram application
setprop svmram/mirror = astring: d20
setprop svmram/size_bytes = count: 1048576
setprop svmram/disks = astring: d21,d22
refresh
"""


def write(sim, name, text):
    """A file of the emulated host (under its root), by its host path."""
    os.makedirs(os.path.join(sim.dir, "root", "var", "run"), exist_ok=True)
    with open(os.path.join(sim.dir, "root", "var", "run", name), "w",
              encoding="utf-8") as stream:
        stream.write(text)
    return "/var/run/" + name


def test_command_file_runs_each_line_and_refresh_takes_the_snapshot(d10):
    """One svccfg process writes and refreshes a whole instance: select,
    add, addpg, setprop and refresh, one command a line; svcprop then
    reads the running snapshot refresh took."""
    sim = d10
    path = write(sim, "record", RECORD_FILE)
    assert sim("svccfg", "-f", path) == (0, "", "")
    assert sim("svcprop", "-p", "svmram", "svc:/system/svmram:d20") == (
        0, "svmram/mirror astring d20\n"
           "svmram/size_bytes count 1048576\n"
           "svmram/disks astring d21,d22\n", "")
    assert sim("svcs", "-H", "-o", "state", "svc:/system/svmram:d20") == \
        (0, "disabled\n", "")


def test_command_file_after_s_selection(d10):
    """-s FMRI is selected before the file is read (main: lscf_select,
    then engine_source)."""
    sim = d10
    path = write(sim, "cmds", "setprop svmram/size = astring: 4g\n"
                              "refresh\n")
    assert sim("svccfg", "-s", INST, "-f", path) == (0, "", "")
    assert sim("svcprop", "-p", "svmram/size", INST) == (0, "4g\n", "")


def test_command_file_error_names_the_line_and_stops(d10):
    """vmessage(): "svccfg (FILE, line N): " for a command of a file;
    semerr() exits 1 at the first error; the commands before it stay
    done (each its own transaction), the ones after it never run."""
    sim = d10
    path = write(sim, "cmds", "select svc:/system/svmram:d10\n"
                              "\n"
                              "# a comment line\n"
                              "setprop svmram/a = astring: 1\n"
                              "setprop nopg/b = astring: 2\n"
                              "setprop svmram/c = astring: 3\n")
    assert sim("svccfg", "-f", path) == (
        1, "", 'svccfg (%s, line 5): No such property group "nopg".\n'
        % path)
    assert sim("svcprop", "-c", "-p", "svmram/a", INST) == (0, "1\n", "")
    assert sim("svcprop", "-c", "-p", "svmram/c", INST)[0] == 1


def test_command_file_last_line_without_newline(d10):
    """sc_cmd_lineno counts the newlines read: a last command ended by the
    end of the file is named by the line before it."""
    sim = d10
    path = write(sim, "cmds", "select svc:/system/svmram:d10\nbogus x")
    assert sim("svccfg", "-f", path) == (
        1, "", 'svccfg (%s, line 1): Unknown command "bogus".\n' % path)


def test_command_file_refresh_needs_an_instance(d10):
    """lscf_refresh(): "Instance not selected." without one."""
    sim = d10
    path = write(sim, "cmds", "select svc:/system/svmram\nrefresh\n")
    assert sim("svccfg", "-f", path) == (
        1, "", "svccfg (%s, line 2): Instance not selected.\n" % path)
    assert sim("svccfg", "-s", "svc:/system/svmram", "refresh") == (
        1, "", "svccfg: Instance not selected.\n")


def test_command_file_that_cannot_be_read(d10):
    """engine_source(): a file fopen cannot open, or not a regular file,
    is an error named without a line (sc_cmd_file is NULL then)."""
    sim = d10
    write(sim, "present", "")
    assert sim("svccfg", "-f", "/var/run/missing") == (
        1, "", "svccfg: Could not open /var/run/missing: No such file or "
               "directory.\n")
    assert sim("svccfg", "-f", "/var/run") == (
        1, "", "svccfg: /var/run is not a regular file.\n")
    assert sim("svccfg", "-f", "/var/run/present") == (0, "", "")


def test_command_file_selection_error_names_no_line(d10):
    sim = d10
    path = write(sim, "cmds", "refresh\n")
    assert sim("svccfg", "-s", "svc:/system/nosuch", "-f", path) == (
        1, "", "svccfg: Pattern 'svc:/system/nosuch' doesn't match any "
               "instances or services\n")
