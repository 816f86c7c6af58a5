# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svcadm and svcs: state changes, listings, svcs -x/-l, abbreviations,
error texts and exit statuses."""

from svmsim import smf

INST = "svc:/system/svmram:d10"
HEADER = "STATE          STIME    FMRI\n"
BOOT = ("online         22:13:20 svc:/milestone/multi-user:default\n"
        "online         22:13:20 svc:/network/inetd:default\n"
        "online         22:13:20 svc:/network/rpc/bind:default\n"
        "online         22:13:20 svc:/network/rpc/meta:default\n"
        "online         22:13:20 svc:/system/filesystem/local:default\n"
        "online         22:13:20 svc:/system/filesystem/minimal:default\n"
        "online         22:13:20 svc:/system/identity:node\n"
        "online         22:13:20 svc:/system/mdmonitor:default\n"
        "online         22:13:20 svc:/system/metainit:default\n"
        "online         22:13:20 svc:/system/metasync:default\n"
        "online         22:13:20 svc:/system/svc/restarter:default\n")


def test_fresh_repository_has_the_boot_services(sim):
    assert sim("svcs") == (0, HEADER + BOOT, "")
    assert sim("svcs", "-H", "-o", "state,fmri", "metainit", "metasync") == \
        (0, "online         svc:/system/metasync:default\n"
            "online         svc:/system/metainit:default\n", "")
    assert sim("svcprop", "-p", "startd/duration", "metainit") == \
        (0, "transient\n", "")
    assert sim("svcprop", "-p", "start/exec", "metasync") == \
        (0, "/lib/svc/method/svc-metasync\n", "")


def test_enable_disable_and_svcs_lines(d10):
    sim = d10
    # svcs without arguments lists enabled instances only.
    assert sim("svcs") == (0, HEADER + BOOT, "")
    assert sim("svcs", "-a") == \
        (0, HEADER + "disabled       22:13:20 svc:/system/svmram:d10\n" +
         BOOT, "")
    sim.clock["t"] += 65
    assert sim("svcadm", "enable", "svmram:d10") == (0, "", "")
    assert sim("svcs") == \
        (0, HEADER + BOOT + "online         22:14:25 svc:/system/svmram:d10\n",
         "")
    assert sim("svcs", "-H", "-o", "state,stime", INST) == \
        (0, "online         22:14:25\n", "")
    sim.clock["t"] += 3600 * 3
    assert sim("svcadm", "disable", "system/svmram:d10") == (0, "", "")
    assert sim("svcs", INST) == \
        (0, HEADER + "disabled        1:14:25 svc:/system/svmram:d10\n", "")
    assert sim("svcs") == (0, HEADER + BOOT, "")


def test_stime_formats(d10):
    sim = d10
    sim.clock["t"] += 2 * 86400
    assert sim("svcs", "-H", INST) == \
        (0, "disabled       Nov_14   svc:/system/svmram:d10\n", "")
    sim.clock["t"] += 400 * 86400
    assert sim("svcs", "-H", INST) == \
        (0, "disabled       2023     svc:/system/svmram:d10\n", "")


def test_mark_maintenance_clear_and_svcs_x(d10):
    sim = d10
    sim("svcadm", "enable", INST)
    sim.clock["t"] += 10
    assert sim("svcadm", "mark", "maintenance", "svmram:d10") == (0, "", "")
    assert sim("svcs", "-H", "svmram") == \
        (0, "maintenance    22:13:30 svc:/system/svmram:d10\n", "")
    assert sim("svcs", "-x") == (0, (
        "svc:/system/svmram:d10 (?)\n"
        " State: maintenance since Tue Nov 14 22:13:30 2023\n"
        "Reason: Maintenance requested by an administrator.\n"
        "   See: http://illumos.org/msg/SMF-8000-63\n"
        "   See: /var/svc/log/system-svmram:d10.log\n"
        "Impact: This service is not running.\n"), "")
    # enable does not clear maintenance
    sim("svcadm", "enable", INST)
    assert sim("svcs", "-Ho", "state", INST)[1] == "maintenance\n"
    assert sim("svcadm", "clear", "d10") == (0, "", "")
    assert sim("svcs", "-Ho", "state", INST)[1] == "online\n"
    assert sim("svcs", "-x") == (0, "", "")
    assert sim("svcadm", "clear", INST) == \
        (1, "", 'svcadm: Instance "svc:/system/svmram:d10" is not in a '
                'maintenance or degraded state.\n')


def test_svcs_x_start_method_failure_with_template(sim, tmp_path, svmram_xml):
    manifest = tmp_path / "svmram.xml"
    manifest.write_text(svmram_xml)
    assert sim("svccfg", "import", str(manifest)) == (0, "", "")
    smf.set_state(sim.dir, "svc:/system/svmram:d10", "maintenance",
                  reason="method_failed", exit_status=96)
    assert sim("svcs", "-x") == (0, (
        "svc:/system/svmram:d10 (SVM ramdisk submirror restore)\n"
        " State: maintenance since Tue Nov 14 22:13:20 2023\n"
        "Reason: Start method exited with $SMF_EXIT_ERR_CONFIG.\n"
        "   See: http://illumos.org/msg/SMF-8000-KS\n"
        "   See: svmram(1M)\n"
        "   See: /var/svc/log/system-svmram:d10.log\n"
        "Impact: This service is not running.\n"), "")
    smf.set_state(sim.dir, "svc:/system/svmram:d10", "maintenance",
                  reason="fault_threshold_reached", exit_status=1)
    assert sim("svcs", "-x")[1].splitlines()[2] == \
        "Reason: Start method failed repeatedly, last exited with status 1."


def test_svcs_x_dependency_explanations(sim, tmp_path, svmram_xml):
    manifest = tmp_path / "svmram.xml"
    manifest.write_text(svmram_xml)
    sim("svccfg", "import", str(manifest))
    smf.set_state(sim.dir, "svc:/system/metasync:default", "maintenance",
                  reason="administrative_request")
    smf.set_state(sim.dir, "svc:/system/svmram:d10", "offline")
    assert sim("svcs", "-x") == (0, (
        "svc:/system/metasync:default (SVM metasync)\n"
        " State: maintenance since Tue Nov 14 22:13:20 2023\n"
        "Reason: Maintenance requested by an administrator.\n"
        "   See: http://illumos.org/msg/SMF-8000-63\n"
        "   See: metasync(1M)\n"
        "   See: /var/svc/log/system-metasync:default.log\n"
        "Impact: 1 dependent service is not running.  (Use -v for list.)\n"
    ), "")
    assert sim("svcs", "-xv", INST) == (0, (
        "svc:/system/svmram:d10 (SVM ramdisk submirror restore)\n"
        " State: offline since Tue Nov 14 22:13:20 2023\n"
        "Reason: Service svc:/system/metasync:default\n"
        "        was taken down for maintenace by an administrator.\n"
        "   See: http://illumos.org/msg/SMF-8000-GE\n"
        "  Path: svc:/system/svmram:d10\n"
        "          svc:/system/metasync:default\n"
        "   See: man -M /usr/share/man -s 1M svmram\n"
        "   See: /var/svc/log/system-svmram:d10.log\n"
        "Impact: This service is not running.\n"), "")
    # A dependency on something that does not exist.
    sim("svccfg", "-s", INST, "addpg", "ghost", "dependency")
    for prop, val in (("grouping", "require_all"), ("restart_on", "none"),
                      ("type", "service")):
        sim("svccfg", "-s", INST, "setprop", "ghost/" + prop, "=",
            "astring:", val)
    sim("svccfg", "-s", INST, "setprop", "ghost/entities", "=", "fmri:",
        "svc:/system/ghost")
    sim("svcadm", "refresh", INST)
    assert sim("svcs", "-x", INST)[1].splitlines()[2:6] == [
        "Reason: Dependency svc:/system/ghost is absent.",
        "   See: http://illumos.org/msg/SMF-8000-E2",
        "Reason: Service svc:/system/metasync:default",
        "        was taken down for maintenace by an administrator."]


def test_fmri_abbreviations(d10):
    sim = d10
    for fmri in ("svc:/system/svmram:d10", "system/svmram:d10",
                 "svmram:d10", "d10", "svmram", "system/svmram",
                 "svc:/system/svmram", "*svmram:d1?"):
        assert sim("svcadm", "enable", fmri) == (0, "", ""), fmri
        assert sim("svcs", "-Ho", "state", fmri) == (0, "online\n", ""), \
            fmri
        assert sim("svcadm", "disable", fmri) == (0, "", ""), fmri
        assert sim("svcs", "-Ho", "state", fmri) == (0, "disabled\n", ""), \
            fmri


def test_partial_fmri_matching_several_instances(d10):
    sim = d10
    sim("svccfg", "-s", "svc:/system/svmram", "add", "d11")
    assert sim("svcadm", "enable", "svmram") == \
        (1, "", "svcadm: Partial FMRI matches multiple instances\n")
    assert sim("svcs", "-Ho", "state", "svmram") == \
        (0, "disabled\ndisabled\n", "")
    # A glob may match several.
    assert sim("svcadm", "enable", "svc:/system/svmram:*") == (0, "", "")
    assert sim("svcs", "-H", "-o", "fmri,state", "svmram") == \
        (0, "svc:/system/svmram:d10                             online\n"
            "svc:/system/svmram:d11                             online\n",
         "")


def test_unknown_fmris(d10):
    sim = d10
    assert sim("svcadm", "enable", "nosuch") == \
        (1, "", "svcadm: Pattern 'nosuch' doesn't match any instances\n")
    assert sim("svcadm", "refresh", "svc:/system/nosuch:x") == \
        (1, "", "svcadm: Pattern 'svc:/system/nosuch:x' doesn't match any "
                "instances\n")
    assert sim("svcs", "-x", "nosuch") == \
        (1, "", "svcs: Pattern 'nosuch' doesn't match any instances\n")
    assert sim("svcs", "-H", "nosuch", "d10") == \
        (1, "disabled       22:13:20 svc:/system/svmram:d10\n",
         "svcs: Pattern 'nosuch' doesn't match any instances\n")


def test_usage_errors(sim):
    rc, o, e = sim("svcadm")
    assert (rc, o) == (2, "")
    assert e.startswith("Usage: svcadm [-S <state>] [-v] [-Z | -z zone] "
                        "[cmd [args ... ]]\n\n")
    assert sim("svcadm", "frob", "x")[0] == 2
    assert sim("svcadm", "enable")[0] == 2
    assert sim("svcadm", "mark", "broken", "x")[0] == 2
    rc, o, e = sim("svcs", "-q")
    assert (rc, o) == (2, "")
    assert e.startswith("svcs: illegal option -- q\nUsage: svcs [-aHpv] "
                        "[-o col[,col ... ]] [-R restarter] [-sS col] "
                        "[-Z | -z zone ]\n")
    assert sim("svcs", "-l")[0] == 2
    assert sim("svcs", "-x", "-H")[0] == 2
    assert sim("svcs", "-o", "state,bogus") == \
        (1, "", 'svcs: Unknown column "bogus".\n')
    # What svmram never runs is not emulated: a usage error.
    for argv in (("svcs", "-l", "d10"), ("svcs", "-s", "fmri"),
                 ("svcs", "-?"), ("svcadm", "-v", "enable", "d10"),
                 ("svcadm", "enable", "-r", "d10"),
                 ("svcadm", "milestone", "all")):
        assert sim(*argv)[0] == 2, argv


def test_svcs_columns_and_sorting(d10):
    sim = d10
    sim("svccfg", "-s", "svc:/system/svmram", "add", "d11")
    sim.clock["t"] += 1
    sim("svcadm", "enable", "svmram:d11")
    assert sim("svcs", "-o", "state,inst,stime,nstate,ctid,fmri",
               "svmram") == (0, (
        "STATE          INST                 STIME    NSTATE        CTID   "
        "FMRI\n"
        "disabled       d10                  22:13:20 -                  - "
        "svc:/system/svmram:d10\n"
        "online         d11                  22:13:21 -                  - "
        "svc:/system/svmram:d11\n"), "")
    # Default sort: state (disabled < online), then STIME, then FMRI.
    assert sim("svcs", "-H", "svmram") == (0, (
        "disabled       22:13:20 svc:/system/svmram:d10\n"
        "online         22:13:21 svc:/system/svmram:d11\n"), "")
    # With -o and no -s, lines come out in reverse walk order.
    assert sim("svcs", "-H", "-o", "inst", "svmram") == \
        (0, "d10\nd11\n", "")
    # An offline instance in transition shows an asterisk.
    smf.set_state(sim.dir, "svmram:d10", "offline")
    assert sim("svcs", "-H", "d10") == \
        (0, "offline        22:13:21 svc:/system/svmram:d10\n", "")


def test_svcadm_wait(d10):
    sim = d10
    assert sim("svcadm", "enable", "-s", INST) == (0, "", "")
    assert sim("svcadm", "refresh", INST) == (0, "", "")
    assert sim("svcadm", "restart", INST) == (0, "", "")
    assert sim("svcadm", "disable", "-st", INST) == (0, "", "")
    assert sim("svcs", "-Ho", "state", INST)[1] == "disabled\n"


def test_enable_s_reports_maintenance(d10):
    sim = d10
    smf.set_start_hook(lambda simdir, fmri: 95)
    assert sim("svcadm", "enable", "-s", INST) == \
        (3, "", 'svcadm: Instance "svc:/system/svmram:d10" is in '
                'maintenance state.\n')
    assert sim("svcs", "-x", INST)[1].splitlines()[2] == \
        "Reason: Start method exited with $SMF_EXIT_ERR_FATAL."


def test_start_hook_runs_outside_the_lock(d10):
    sim = d10
    seen = []

    def hook(simdir, fmri):
        # A start method reads its configuration with svcprop.
        rc = smf.main("svcprop", ["-p", "svmram/size", fmri], simdir)
        seen.append((rc, fmri))
        assert smf.main("svcs", ["-Ho", "state,nstate", fmri], simdir) == 0
        return 0

    smf.set_start_hook(hook)
    # While the method runs the instance is offline, next state online.
    assert sim("svcadm", "enable", INST) == \
        (0, "2g\noffline        online\n", "")
    assert seen == [(0, INST)]
    assert sim("svcs", "-Ho", "state", INST)[1] == "online\n"
    smf.set_state(sim.dir, INST, "maintenance", "method_failed")
    assert sim("svcadm", "clear", INST) == \
        (0, "2g\noffline        online\n", "")
    assert len(seen) == 2


def test_two_abbreviations_count_as_a_multiple_partial_match(sim):
    # lowlevel.c: with SCF_WALK_UNIPARTIAL, any partial operand plus more
    # than one match in total is refused -- use full FMRIs with svcadm.
    assert sim("svcadm", "mark", "maintenance", "metainit", "metasync") == \
        (1, "", "svcadm: Partial FMRI matches multiple instances\n")
    assert sim("svcadm", "mark", "maintenance",
               "svc:/system/metainit:default",
               "svc:/system/metasync:default") == (0, "", "")
    assert sim("svcadm", "clear", "svc:/system/metainit:default",
               "svc:/system/metasync:default") == (0, "", "")
    assert sim("svcs", "-x") == (0, "", "")


def test_svcprop_group_and_property_operands(sim):
    assert sim("svcprop", "svc:/system/metainit/:properties/startd") == \
        (0, "startd/duration astring transient\n", "")
    assert sim("svcprop", "-p", "nope",
               "svc:/system/metainit/:properties/startd") == \
        (1, "", "svcprop: Couldn't find property `nope' in property group "
                "`svc:/system/metainit/:properties/startd'.\n")
    assert sim("svcprop",
               "svc:/system/metainit/:properties/startd/duration") == \
        (0, "transient\n", "")
    # A group FMRI names the entity's own groups: startd is service-level.
    assert sim("svcprop",
               "svc:/system/metainit:default/:properties/startd") == \
        (1, "", "svcprop: Pattern 'svc:/system/metainit:default/"
                ":properties/startd' doesn't match any entities\n")
