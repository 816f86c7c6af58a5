"""A failure at every step of setup and teardown, and svmram killed after
every step: setup with both methods (rotate on the article's mounted
mirror, swap on the closed one of hosts/swap.json), teardown after rotate
(after swap it runs the very same commands; a test checks that).

The steps are not listed here: they are read from the trace of a clean run
(a module fixture), so a new step is covered as soon as svmram takes it.
A step is a run of commands that change the host with no read between them
(the record step is one run of svccfg/svcadm commands); each step's first,
second and last commands fail in turn, and svmram is killed after its first,
second-to-last and last commands.

After a failure svmram must exit 1 with a message that names the step, says
what SVM answered and what to do, without a traceback; a failed setup must
be rolled back to the exact original configuration; the data-safety
monitor must stay clean; and a rerun of the same command must converge.

The cases of one matrix run two at a time (each on its own emulated host);
every emulated command is a process, and this keeps the file's run time
near two minutes on two cores.
"""

import concurrent.futures
import os
import re

import pytest

from hosts import EmulatedHost, clone, host_file, killing_bindir, _reads_only

ORIGINAL = (
    "d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 1\n"
    "d11 1 1 /dev/rdsk/c0d1s0\n"
    "d12 1 1 /dev/rdsk/c1d0s0\n")

RAM_FIRST = (
    "d10 -m /dev/md/rdsk/d13 /dev/md/rdsk/d11 /dev/md/rdsk/d12 -r 1\n"
    "d13 1 1 /dev/rdsk/c90t0d0s0\n"
    "d11 1 1 /dev/rdsk/c0d1s0\n"
    "d12 1 1 /dev/rdsk/c1d0s0\n")

FMRI = "svc:/system/svmram:d10"
HOSTS = {"rotate": "article", "swap": "swap"}
JOURNAL = "var/svmram/d10.journal"
WORKERS = 3
# Percent a resync advances at each metastat call: at once, except after
# a kill, where it spans three calls, so that the rerun finds it running.
RESYNC_STEP = "100"
KILLED_RESYNC_STEP = "40"


# --- the errors a real host gives at each point ------------------------------

def fault_options(argv):
    """`svmsim faults add` options for a failure of this command, with the
    message SVM (or ramdiskadm, svccfg, svcadm) would print there."""
    prog = argv[0]
    if prog == "ramdiskadm" and argv[1] == "-a":
        return ["--message", "ramdiskadm: couldn't create ramdisk "
                "\"%s\": Resource temporarily unavailable" % argv[2]]
    if prog == "ramdiskadm":
        return ["--message", "ramdiskadm: couldn't delete ramdisk "
                "\"%s\": Device busy" % argv[2]]
    if prog == "metattach":
        return ["--svm-error", "submirror open error", "--name", argv[2]]
    if prog == "metadetach":
        return ["--svm-error", "resync in progress", "--name", argv[-2]]
    if prog == "metaclear":
        return ["--svm-error", "metadevice is open", "--name", argv[-1]]
    if prog in ("metainit", "metaparam"):
        return ["--svm-error", "stale databases"]
    if prog == "svccfg":
        return ["--message", "svccfg: Backend read-only."]
    if prog == "svcadm":
        return ["--message", "svcadm: %s: Permission denied." % argv[-1]]
    raise AssertionError("no realistic error for %s" % argv)


def fault_text(host, argv):
    """The first line of what the fault prints, as svmram quotes it."""
    options = fault_options(argv)
    if options[0] == "--message":
        return options[1]
    name = options[3] + ": " if len(options) > 2 else ""
    return "%s: myhost: %s%s" % (argv[0], name, options[1])


def arm(host, argv, nth):
    result = host.sim("faults", "add", argv[0], "--nth", str(nth),
                      "--exit", "1", *fault_options(argv))
    assert result.returncode == 0, result.stderr


# --- clean runs and their steps ----------------------------------------------

class Command:
    """A changing command of a clean run: argv, which call of its program
    it is (faults and kills count every call, reads too), and where it
    sits in its step.  `afterwards`: the plan runs it after the journal
    and the lock are released (enabling the boot service), so nothing is
    rolled back when it fails."""

    def __init__(self, argv, nth, step, index, size):
        self.argv, self.nth = argv, nth
        self.step, self.index, self.size = step, index, size
        self.afterwards = False

    def __repr__(self):
        return "step %d command %d/%d: %s" % (
            self.step, self.index + 1, self.size, " ".join(self.argv))


def commands(trace, script=""):
    """The changing commands of a trace, grouped in steps; `script` is the
    plan's -n script, whose last part lists the commands run afterwards."""
    calls, runs, reading = {}, [], True
    for argv in trace:
        calls[argv[0]] = calls.get(argv[0], 0) + 1
        if _reads_only(argv):
            reading = True
            continue
        if reading:
            runs.append([])
            reading = False
        runs[-1].append((argv, calls[argv[0]]))
    found = [Command(argv, nth, step, index, len(run))
             for step, run in enumerate(runs, 1)
             for index, (argv, nth) in enumerate(run)]
    later = script.partition("\n# Then enable the boot service")[2]
    for command in found:
        command.afterwards = any(
            line.endswith("/" + " ".join(command.argv))
            for line in later.splitlines())
    return found


def failing(cmds):
    return [c for c in cmds if c.index in (0, 1, c.size - 1)]


def killing(cmds):
    return [c for c in cmds if c.index in (0, c.size - 2, c.size - 1)]


class Clean:
    """One method's pristine host, a set-up copy, and the traces of a
    clean setup and teardown."""

    def __init__(self, method, directory):
        name = HOSTS[method]
        self.method = method
        self.pristine = EmulatedHost(directory / "pristine",
                                     host_file=host_file(name), preset=name)
        assert self.pristine.sim("thaw", "--step", RESYNC_STEP).returncode == 0
        self.original = digest(self.pristine)
        assert self.original["metastat -p"] == ORIGINAL
        done = clone(self.pristine, directory / "done")
        script = done.svmram("setup", "-n", "d10").stdout
        done.clear_trace()
        result = done.svmram("setup", "-y", "d10")
        assert result.returncode == 0, result.stderr
        self.setup = commands(done.trace(changes_only=False), script)
        self.set_up = clone(done, directory / "set-up")
        self.set_up_digest = digest(self.set_up)
        assert self.set_up_digest["metastat -p"] == RAM_FIRST
        done.clear_trace()
        result = done.svmram("teardown", "-y", "d10")
        assert result.returncode == 0, result.stderr
        self.teardown = commands(done.trace(changes_only=False))
        assert differs(done, self.original) == []
        assert done.violations() == []


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    made = {}

    def get(method):
        if method not in made:
            made[method] = Clean(method, tmp_path_factory.mktemp(method))
        return made[method]
    return get


# --- looking at a host -------------------------------------------------------

def digest(host):
    """What must be exactly as before after a rollback: SVM's configuration
    and states, the ramdisks, the /dev links, svmram's SMF instances and
    its journal."""
    links = {}
    for kind in ("dsk", "rdsk"):
        directory = os.path.join(host.root, "dev", kind)
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            if os.path.islink(path):
                links["%s/%s" % (kind, name)] = os.readlink(path)
    return {"metastat -p": host.metastat_p(),
            "metastat d10": host.cmd("metastat", "d10").stdout,
            "ramdiskadm": host.ramdisks(), "links": links,
            "instances": host.cmd("svcs", "-H", "-o", "fmri,state",
                                  "svc:/system/svmram:*").stdout,
            "journal": os.path.exists(os.path.join(host.root, JOURNAL))}


def differs(host, want):
    got = digest(host)
    return ["%s is %r, expected %r" % (key, got[key], want[key])
            for key in want if got[key] != want[key]]


def is_set_up(host, clean_run):
    """[] if the host is set up as a clean setup leaves it."""
    problems = differs(host, clean_run.set_up_digest)
    props = host.cmd("svcprop", "-p", "svmram", FMRI).stdout.splitlines()
    for line in ("svmram/ram astring d13", "svmram/method astring %s"
                 % clean_run.method, "svmram/disks astring d11,d12",
                 "svmram/format count 1"):
        if line not in props:
            problems.append("the record lacks %r" % line)
    return problems


def clean_output(result):
    problems = []
    if "Traceback" in result.stderr:
        problems.append("a traceback:\n" + result.stderr)
    return problems


def monitor(host):
    """Violations stay recorded, so one look at the end of a case
    covers all of it."""
    return ["monitor: " + line for line in host.violations()]


def step_named(result, operation, message):
    """The failure message names the step it reports, as the progress
    lines numbered it."""
    lines = result.stderr.splitlines()
    started = [line for line in lines
               if line.startswith("%s d10: step " % operation)]
    if not started:
        return ["no step was started:\n" + result.stderr]
    number, _, summary = started[-1][len("%s d10: step " % operation):] \
        .partition(": ")
    number = number.split(" of ")[0]
    want = "svmram: step %s failed (%s): " % (number, summary.rstrip("."))
    if not message.startswith(want):
        return ["the message %r does not start with %r" % (message, want)]
    return []


# --- one case each -----------------------------------------------------------

def setup_fails(clean_run, command, directory):
    """`command` of the setup fails: rolled back exactly, then a rerun of
    setup converges."""
    host = clone(clean_run.pristine, directory)
    arm(host, command.argv, command.nth)
    result = host.svmram("setup", "-y", "d10")
    problems = clean_output(result)
    if result.returncode != 1:
        return ["exit status %d:\n%s" % (result.returncode, result.stderr)]
    lines = result.stderr.splitlines()
    message, advice = lines[-2], lines[-1]
    if command.afterwards:
        return problems + enable_failed(clean_run, command, host, message,
                                        advice)
    problems += step_named(result, "setup", message)
    said = "%s failed: %s" % (
        os.path.join(host.env["SVMRAM_BINDIR"], " ".join(command.argv)),
        fault_text(host, command.argv).rstrip("."))
    if said not in message:
        problems.append("the message %r does not quote %r" % (message, said))
    if not message.endswith(".  Everything was rolled back; d10 is as it "
                            "was before."):
        problems.append("the message %r does not say it rolled back"
                        % message)
    if advice != "svmram: Fix the cause, then run 'svmram setup d10' again.":
        problems.append("the advice is %r" % advice)
    problems += differs(host, clean_run.original)
    rerun = host.svmram("setup", "-y", "d10")
    if rerun.returncode != 0:
        return problems + ["the rerun failed:\n" + rerun.stderr]
    return problems + is_set_up(host, clean_run) + monitor(host)


def enable_failed(clean_run, command, host, message, advice):
    """Enabling the boot service failed: the mirror stays set up, the
    message says so, and a rerun of setup enables it."""
    problems = []
    want = ("svmram: d10 is set up, but its boot service could not be "
            "enabled (%s failed: %s)" % (
                os.path.join(host.env["SVMRAM_BINDIR"],
                             " ".join(command.argv)),
                fault_text(host, command.argv)))
    if message != want:
        problems.append("the message is %r, expected %r" % (message, want))
    if advice != ("svmram: Fix the cause, then run 'svmram setup d10' again "
                  "to enable it."):
        problems.append("the advice is %r" % advice)
    set_up = clean_run.set_up_digest
    problems += differs(host, dict(set_up, instances=set_up[
        "instances"].replace("online", "disabled")))
    host.clear_trace()
    rerun = host.svmram("setup", "-y", "d10")
    if rerun.returncode != 0:
        return problems + ["the rerun failed:\n" + rerun.stderr]
    if [argv for argv in host.trace() if argv[0] != "svcadm"] != []:
        problems.append("the rerun changed more than the service: %r"
                        % host.trace())
    return problems + is_set_up(host, clean_run) + monitor(host)


def teardown_fails(clean_run, command, directory):
    """`command` of the teardown fails: nothing is undone, the message
    says to run teardown again, and that converges."""
    host = clone(clean_run.set_up, directory)
    arm(host, command.argv, command.nth)
    result = host.svmram("teardown", "-y", "d10")
    problems = clean_output(result)
    if result.returncode != 1:
        return ["exit status %d:\n%s" % (result.returncode, result.stderr)]
    lines = result.stderr.splitlines()
    message, advice = lines[-2], lines[-1]
    problems += step_named(result, "teardown", message)
    said = "%s failed: %s" % (
        os.path.join(host.env["SVMRAM_BINDIR"], " ".join(command.argv)),
        fault_text(host, command.argv))
    if not message.endswith(said):
        problems.append("the message %r does not end with %r"
                        % (message, said))
    if advice != ("svmram: Nothing was undone; run 'svmram teardown d10' "
                  "again to continue from where it stopped."):
        problems.append("the advice is %r" % advice)
    if not os.path.exists(os.path.join(host.root, JOURNAL)):
        problems.append("no journal is left for the rerun")
    rerun = host.svmram("teardown", "-y", "d10")
    if rerun.returncode != 0:
        return problems + ["the rerun failed:\n" + rerun.stderr]
    return problems + differs(host, clean_run.original) + monitor(host)


def killed(clean_run, operation, command, directory):
    """svmram is killed right after `command`: a rerun of the same
    command resumes from the journal and converges."""
    start = clean_run.pristine if operation == "setup" else clean_run.set_up
    host = clone(start, directory)
    bindir = killing_bindir(host, command.argv[0], command.nth)
    result = host.svmram(operation, "-y", "d10",
                         env={"SVMRAM_BINDIR": bindir})
    problems = []
    if result.returncode != -9:
        return ["not killed (exit status %d):\n%s" % (result.returncode,
                                                        result.stderr)]
    if command.afterwards:
        # Killed after the last command: set up, and a rerun says so.
        rerun = host.svmram(operation, "-y", "d10")
        if (rerun.returncode, rerun.stderr.splitlines()[:1]) != (3, [
                "svmram: d10 is already set up for reads from RAM"]):
            problems.append("the rerun: exit %d\n%s" % (rerun.returncode,
                                                        rerun.stderr))
        return problems + is_set_up(host, clean_run) + monitor(host)
    if not os.path.exists(os.path.join(host.root, JOURNAL)):
        problems.append("the killed run left no journal")
    assert host.sim("thaw", "--step", KILLED_RESYNC_STEP).returncode == 0
    rerun = host.svmram(operation, "-y", "d10")
    problems += clean_output(rerun)
    if rerun.returncode != 0:
        return problems + ["the rerun failed:\n" + rerun.stderr]
    if operation == "setup":
        return problems + is_set_up(host, clean_run) + monitor(host)
    return problems + differs(host, clean_run.original) + monitor(host)


def run_all(cases):
    """Run (description, function, args) cases two at a time; the
    problems of each, by description."""
    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        futures = [(what, pool.submit(fn, *args)) for what, fn, args in cases]
        found = {}
        for what, future in futures:
            problems = future.result()
            if problems:
                found[what] = problems
    return found


def report(found):
    return "\n\n".join("%s:\n  %s" % (what, "\n  ".join(problems))
                       for what, problems in found.items())


# --- the matrices ------------------------------------------------------------

@pytest.mark.parametrize("method", ["rotate", "swap"])
def test_a_failure_at_each_setup_step_is_rolled_back(clean, method,
                                                     tmp_path):
    run = clean(method)
    cases = [(repr(c), setup_fails, (run, c, tmp_path / str(n)))
             for n, c in enumerate(failing(run.setup))]
    steps = {c.step for c in run.setup}
    assert {c.step for _, _, (_, c, _) in cases} == steps
    assert len(steps) >= 6
    found = run_all(cases)
    assert not found, report(found)


# Teardown runs the same commands after either method (the RAM submirror
# is first either way), so its matrices use the rotate host only.

def test_a_failure_at_each_teardown_step_is_finished_by_a_rerun(clean,
                                                                tmp_path):
    run = clean("rotate")
    assert [c.argv for c in clean("swap").teardown] == \
        [c.argv for c in run.teardown]
    cases = [(repr(c), teardown_fails, (run, c, tmp_path / str(n)))
             for n, c in enumerate(failing(run.teardown))]
    assert len(cases) == len(run.teardown) == 6
    found = run_all(cases)
    assert not found, report(found)


@pytest.mark.parametrize("method, operation", [
    ("rotate", "setup"), ("swap", "setup"), ("rotate", "teardown")])
def test_svmram_killed_after_each_step_resumes(clean, method, operation,
                                               tmp_path):
    run = clean(method)
    cmds = run.setup if operation == "setup" else run.teardown
    cases = [(repr(c), killed, (run, operation, c, tmp_path / str(n)))
             for n, c in enumerate(killing(cmds))]
    assert {c.step for _, _, (_, _, c, _) in cases} == {c.step for c in cmds}
    found = run_all(cases)
    assert not found, report(found)


# --- a rollback that fails too -----------------------------------------------

# (method, the setup command that fails, the rollback's first command, which
# fails as well).  None of these programs has read-only calls, so the
# rollback's command is that program's next call.
FAILED_ROLLBACKS = [
    ("rotate", ("metattach", "d10", "d11"), ("metattach", "d10", "d11")),
    ("swap", ("metainit", "d10", "-m", "d13", "d11", "d12", "-r", "1"),
     ("metainit", "d10", "-m", "d11", "d12", "1")),
    ("swap", ("svccfg", "-s", FMRI, "addpg", "svmram", "application"),
     ("metaparam", "-r", "roundrobin", "d10")),
]


def rollback_fails(clean_run, failing_argv, back_argv, directory):
    """The setup fails, then its rollback fails at its first command: the
    journal stays, setup refuses to run over it, teardown finishes the
    rollback, and setup then converges."""
    host = clone(clean_run.pristine, directory)
    command = next(c for c in clean_run.setup
                   if tuple(c.argv) == failing_argv)
    before = [c for c in clean_run.setup if c.argv[0] == back_argv[0]
              and clean_run.setup.index(c) <= clean_run.setup.index(command)]
    arm(host, command.argv, command.nth)
    arm(host, list(back_argv), len(before) + 1)
    result = host.svmram("setup", "-y", "d10")
    problems = clean_output(result)
    if result.returncode != 1:
        return ["exit status %d:\n%s" % (result.returncode, result.stderr)]
    changes = host.trace()
    at = changes.index(list(failing_argv))
    if changes[at + 1:at + 2] != [list(back_argv)]:
        problems.append("the rollback began with %r" % changes[at + 1:at + 2])
    bindir = host.env["SVMRAM_BINDIR"]
    text = result.stderr
    said = r"; rolling back failed too: step 1 failed \([^)]+\): %s\n" % (
        re.escape("%s failed: %s" % (os.path.join(bindir, " ".join(back_argv)),
                                     fault_text(host, back_argv))))
    if not re.search(said, text):
        problems.append("the message does not report the failed rollback "
                        "(%r):\n%s" % (said, text))
    advice = ("svmram: Run 'svmram teardown d10' to finish the rollback, or "
              "finish it by hand:\n#!/bin/ksh93\n")
    if advice not in text:
        problems.append("no advice %r" % advice)
    script = text[text.index("#!/bin/ksh93"):] if "#!/bin/ksh93" in text \
        else ""
    if "\n%s\n" % os.path.join(bindir, " ".join(back_argv)) not in script:
        problems.append("the script does not run %r" % (back_argv,))
    if not os.path.exists(os.path.join(host.root, JOURNAL)):
        problems.append("no journal was left")
    host.sim("faults", "clear")
    left = digest(host)
    again = host.svmram("setup", "-y", "d10")
    if again.returncode != 3 or "svmram: a teardown of d10 has not " \
            "finished\nsvmram: Run 'svmram teardown d10' to finish it.\n" \
            != again.stderr or digest(host) != left:
        problems.append("setup over the journal: exit %d\n%s" % (
            again.returncode, again.stderr))
    finish = host.svmram("teardown", "-y", "d10")
    if finish.returncode != 0:
        return problems + ["teardown failed:\n" + finish.stderr]
    problems += differs(host, clean_run.original)
    rerun = host.svmram("setup", "-y", "d10")
    if rerun.returncode != 0:
        return problems + ["the rerun failed:\n" + rerun.stderr]
    return problems + is_set_up(host, clean_run) + monitor(host)


def test_a_failed_rollback_is_finished_by_teardown(clean, tmp_path):
    cases = [("%s: %s, then %s" % (method, " ".join(fail), " ".join(back)),
              rollback_fails, (clean(method), fail, back, tmp_path / str(n)))
             for n, (method, fail, back) in enumerate(FAILED_ROLLBACKS)]
    found = run_all(cases)
    assert not found, report(found)
