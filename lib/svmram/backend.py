# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The backend interface: everything commands/ asks of a storage backend
(SVM on Solaris and illumos, lib/svmram/svm; Linux md, lib/svmram/md).

The neutral code -- commands/, cli.py and the core modules beside this
one -- imports no backend package and prints no backend word
(tests/svmram/test_boundary.py holds it to both); the CLI gets a Backend
from registry.py, the one registry.  Two objects make a backend:

* a ``Backend`` (one per run): the syntax of its target names, its
  options, its intents, its planners, its status report, its record
  store, and its ``Words``: the nouns and commands the neutral code
  puts into its messages (an md administrator reads "member" and
  "mdadm --detail", an SVM one "submirror" and "metastat"), plus the
  few sentences that really differ per backend (state_text and the
  lines a subcommand prints when done);
* a ``Host`` (``Backend.host(target)``): one target on the host, which
  execute.py drives: ``observe(intent)``, ``perform(step, values)``,
  ``differences(expected, observed)``, ``resync_status(target)``, and
  the boot service's state.

A Backend changes no process state when constructed.  It holds the
run's ``run.Deadline`` and the runner its Hosts run commands through
(``runner``: its Programs, ending each command by that deadline); the
failures of its commands are worded by its Programs (programs.py).  The
run context (context.py) holds the Backend a subcommand uses.

What is observed is an explicit argument: ``Host.observe(intent)`` reads
what the intent names besides the target (a RAM submirror detached from
the mirror, a link under the chosen name); a ``Plan`` carries its intent
(``plan.intent``), which execute.py passes.  A Host keeps nothing a caller
sets: what a backend learned while planning (SVM's test of the slots on
a scratch mirror) it passes to its Host's observe as an argument.

Snapshots, intents and steps are the backend's own types; commands/ only
passes them along, reads ``Plan`` and ``Step`` (plan.py), and calls an
intent's ``to_json()`` for the journal.

The status report is a list of (Status, Problems) pairs, one per target
the backend's record store names: a ``Status`` (below) holds the facts
under neutral names, the same for every backend, and ``to_json()`` is
the schema of docs/status-json.md (format 2).  Each backend's words
(submirrors, members, its boot service's kind) appear only in text.
"""

import abc
from dataclasses import dataclass, field
from typing import Callable, List, Optional

from . import run
from .errors import RefusedError, UsageError


@dataclass
class Problems:
    """What keeps one target from OK under ``status --nagios``, graded as
    the backend finds it: ``critical`` needs an administrator; ``warning``
    passes by itself (the copy into RAM after a boot or a setup, a disk
    resync, a setup or teardown that is running).  ``booting``: the boot
    service has not finished since boot, so a missing RAM copy is what
    every boot looks like.  ``disks``: the recorded disk members, for
    ``-o disks``."""

    booting: bool = False
    critical: List[str] = field(default_factory=list)
    warning: List[str] = field(default_factory=list)
    disks: tuple = ()

    def add(self, words, passing=False):
        (self.warning if passing else self.critical).append(words)

    def unless_booting(self, words):
        self.add(words, passing=self.booting)


@dataclass
class Status:
    """One target in `svmram status` (docs/status-json.md, format 2).

    ``verdict``: serving, not_serving, degraded or only_copy_in_ram;
    ``reasons``: why it is not serving, in words.  The rest is known only
    for a configured target: ``disk_redundancy`` {state full/degraded/
    lost, current, reasons, fixes} (None when it cannot be judged),
    ``ram_copy`` (the RAM copy's name), ``method``, ``read_policy`` (SVM's
    read option; None on md, whose write-mostly disks say it),
    ``size_blocks``, ``sync_percent`` (the copy onto a copy, None unless
    it runs), ``sync_bytes_per_second`` and ``sync_seconds_left`` (its
    rate and the time left at that rate, where the system reports a rate:
    md, not SVM), ``scrub`` {action, percent} (a check of every copy that
    the system runs by itself, md's check or repair; None unless it runs),
    ``raised_speed_limit`` {kib_per_second, fix} (md's recovery speed
    limit that svmram raised for the copy into RAM, still on the array
    though md copies nothing, and the command that puts the system's
    back; None otherwise, always on SVM),
    ``copies`` [{slot, name, state, ram}] (``state`` in the
    backend's own terms), ``ramdisk`` {name, present, size_bytes, device,
    recorded_device, device_matches} and ``boot_service`` {name, state}.
    md's copies add ``write_mostly`` (SVM's read policy is the mirror's).
    """

    target: str
    configured: bool
    verdict: str
    serving_from_ram: bool
    reasons: List[str]
    disk_redundancy: Optional[dict] = None
    ram_copy: Optional[str] = None
    method: Optional[str] = None
    read_policy: Optional[str] = None
    size_blocks: Optional[int] = None
    sync_percent: Optional[int] = None
    sync_bytes_per_second: Optional[int] = None
    sync_seconds_left: Optional[int] = None
    scrub: Optional[dict] = None
    raised_speed_limit: Optional[dict] = None
    copies: List[dict] = field(default_factory=list)
    ramdisk: Optional[dict] = None
    boot_service: Optional[dict] = None

    BRIEF = ("target", "configured", "verdict", "serving_from_ram",
             "reasons")

    @classmethod
    def unconfigured(cls, target, reason):
        """A target named that svmram did not set up (or whose record a
        setup has not finished writing)."""
        return cls(target, False, "not_serving", False, [reason])

    def to_json(self):
        found = dict(self.__dict__)
        if not self.configured:
            return {key: found[key] for key in self.BRIEF}
        return found


@dataclass(frozen=True)
class Words:
    """A backend's nouns and commands, which the neutral code puts into
    its messages, so that each administrator reads the words of the
    system at hand.  In the commands, {target} stands for the target's
    name ("d10", "md0") and {unit} for its boot service (``unit``: the
    ``boot_unit`` template with {instance}, the target's name made an
    instance by ``instance``: for systemd, unitescape.systemd_escape,
    so that vg/lv gives svmram-lvm@vg-lv.service)."""

    system: str             # what setup changes: "SVM", "md arrays"
    target: str             # what it works on: "mirror", "array"
    example: str            # a target's name as given: "d10", "/dev/md0"
    copies: str             # the target's copies: "submirrors", "members"
    ram_copy: str           # "RAM submirror", "RAM member"
    disk_copy: str          # "disk submirror", "disk"
    disk_copies: str        # "disk submirrors", "disks"
    ram_device: str         # what holds the RAM copy: "ramdisk", "RAM disk"
    current: str            # the state of a current copy: "Okay", "in sync"
    current_state: str      # that state in Status.copies: "Okay", "in_sync"
    sync: str               # the copy onto a new one: "resync", "recovery"
    service_failed: str     # the boot service gave up: "is in maintenance"
    service_running: str    # its state when it runs: "online", "active"
    state_command: str      # shows the target: "metastat {target}"
    retry_command: str      # retries the boot service
    explain_command: str    # says why the boot service is not running
    hung_command: str       # where to look when a command hangs
    serving: str            # status: what serving from RAM means, {ram}
    script: str             # what -n prints: "ksh script", "POSIX sh script"
    boot_unit: str = "{instance}"   # "svmram@{instance}.service"
    # a scrub (Status.scrub) running, {action}: "md's {action} (scrub)"
    scrub: str = "{action}"
    instance: Callable[[str], str] = str    # a target's name -> {instance}

    def unit(self, target):
        """The boot service of `target` ("svmram@md0.service")."""
        return self.boot_unit.format(instance=self.instance(target))

    def _format(self, template, target):
        return template.format(target=target, unit=self.unit(target))

    def state(self, target):
        return self._format(self.state_command, target)

    def retry(self, target):
        return self._format(self.retry_command, target)

    def explain(self, target):
        return self._format(self.explain_command, target)

    def serving_detail(self, status):
        """What "serving reads from RAM" means for a Status."""
        return self.serving.format(ram=status.ram_copy)


class Host(abc.ABC):
    """One target on the host, as execute.py drives it."""

    @abc.abstractmethod
    def observe(self, intent=None):
        """The host as the backend's Snapshot of the target, plus what
        `intent` names (None: the target alone).  Output the parsers do
        not understand is refused (ParseError)."""

    @abc.abstractmethod
    def perform(self, step, values):
        """Carry out the step's actions (``step.do``, actions.py) in order,
        commands through run.py; `values` holds the ${VAR} values actions
        set, shared by the steps of one plan."""

    def observe_after(self, step, intent, before):
        """The reading a step's promise is checked against, taken after
        the step.  `before`: the reading the last step was checked
        against in this plan (None for its first step).  A backend may
        read again only what the step's actions can change and take the
        rest from `before` (SVM: host.py); by default everything is read
        again."""
        return self.observe(intent)

    @abc.abstractmethod
    def differences(self, expected, observed):
        """What `observed` lacks of `expected`, as lines for people;
        [] when the step did what it promised."""

    @abc.abstractmethod
    def resync_status(self, target):
        """execute.ResyncStatus of the resync the last step started."""

    @abc.abstractmethod
    def boot_service_state(self):
        """The state of the target's boot service (Words.service_running,
        "disabled",
        ...), None when there is none."""

    def run_afterwards(self, argv):
        """Run one of a plan's `afterwards` commands (it enables or starts
        the boot service), unchecked: run.Result, through the Host's
        runner (`_run`, its backend's programs).  A backend whose boot
        service has an access module of its own runs it there (SVM:
        svm/smf.py)."""
        return self._run(argv[0], list(argv[1:]), check=False)


class Backend(abc.ABC):
    """A storage backend, as commands/ sees it (see the module's text)."""

    name = None             # its name in registry.py: "svm", "md"
    words = None            # Words: its nouns and commands, for messages
    prelude = None          # plan.Prelude of its -n scripts
    programs = None         # run.Programs: the commands it runs, by path

    def __init__(self, root="/"):
        self.root = root
        # The run's deadline (restore sets it through the run context),
        # and the runner of the Hosts this Backend makes, which keeps it.
        self.deadline = run.Deadline()
        self.runner = self.programs.runner(self.deadline) \
            if self.programs is not None else None

    # --- names and options ------------------------------------------------

    @classmethod
    @abc.abstractmethod
    def owns(cls, text, root="/"):
        """Is `text` written in this backend's target syntax (d10 for
        SVM, /dev/mdX for md) on the host under `root`?  Says nothing of
        whether it exists.  No two backends claim one name
        (registry.owner refuses one that several claim)."""

    @classmethod
    @abc.abstractmethod
    def owns_host(cls, root="/"):
        """Is the host under `root` one of this backend's (its system
        runs there: SVM on Solaris and illumos, md on Linux)?  Asked of
        every backend for a command given no target; several may say
        yes (the registry's order then counts)."""

    @abc.abstractmethod
    def target(self, text):
        """`text` as a target name, or UsageError saying the syntax."""

    def add_setup_arguments(self, parser):
        """Setup's backend options (sizes, names, method)."""

    def setup_options(self, args):
        """The options add_setup_arguments added, checked: a dict for
        plan_setup."""
        return {}

    def add_teardown_arguments(self, parser):
        """Teardown's backend options."""

    def teardown_options(self, args):
        return {}

    def add_restore_arguments(self, parser):
        """Restore's backend options."""

    def restore_options(self, args):
        return {}

    def setup_differences(self, intent, options):
        """What the setup `options` ask for that the recorded `intent`
        of a target set up already does not have, as words ("--size 2g,
        recorded 1g"); empty when they match (setup answers "nothing to
        do").  Options that name no property of the setup (a permission
        such as --allow-label) never differ."""
        return []

    # --- the host and the record store ------------------------------------

    @abc.abstractmethod
    def host(self, target):
        """The Host of `target`, running its commands through
        ``self.runner``."""

    @abc.abstractmethod
    def intent_from_json(self, data, where):
        """The intent a journal holds (RefusedError if it is not one)."""

    @abc.abstractmethod
    def record_name(self, target):
        """Where the target's record lives (an SMF instance's FMRI, a
        file), for messages."""

    @abc.abstractmethod
    def recorded_intent(self, host):
        """The intent the target's record holds; None when the target
        has no record (RefusedError when the record is incomplete or
        damaged)."""

    def tidy(self, host):
        """Before setup or teardown changes anything (not in a dry run):
        remove what an interrupted run of svmram's own left that is no
        part of the target (SVM: a slot test's scratch mirror).  Returns
        what was removed, as words for a line, or None."""
        return None

    # --- plans -------------------------------------------------------------

    @abc.abstractmethod
    def plan_setup(self, host, options, resumed, dry_run):
        """Observe the host once, choose an intent (or take `resumed`, the
        intent of an unfinished setup's journal), check it against the
        host and plan; refuse before anything changes.  The plan carries
        its intent and notes; plan.afterwards holds the commands that
        enable the boot service once the host lock is released.  A dry
        run changes nothing (it may assume and say so in the notes)."""

    @abc.abstractmethod
    def plan_rollback(self, observed, intent):
        """The teardown plan that undoes a failed setup from `observed`."""

    @abc.abstractmethod
    def plan_teardown(self, host, intent, where, resumed, options,
                      dry_run):
        """Observe once, check the host against `intent` (read from
        `where`) and plan the teardown.  `resumed`: an unfinished
        operation's journal gave the intent."""

    @abc.abstractmethod
    def plan_restore(self, host, intent, options):
        """(plan, snapshot): observe once, check, plan the restore's next
        steps from the state found.  Called again after every step (a new
        ramdisk's device number is only known once it exists) with the
        intent the record holds then."""

    def replan_restore(self, host, options, observed, observed_for):
        """(intent, plan) of the restore's next round, after a step: the
        intent the record holds now and the plan from the state found;
        None when the record is gone.  `observed` is the reading execute
        checked the step against, taken after it, with `observed_for`
        (the intent of the plan that step was in), or None.  The default
        reads the record and the host again; a backend whose reading
        holds the record plans from it (SVM)."""
        intent = self.recorded_intent(host)
        if intent is None:
            return None
        return intent, self.plan_restore(host, intent, options)[0]

    def restore_aside(self, intent):
        """The backend's own reason for a restore to stand aside (md: the
        marker of a teardown cut short), as a RefusedError, or None."""
        return None

    def plan_start(self, host, intent, options):
        """What a restore that stands aside still does, so that the boot
        can use the target (md: start an array a power cut left inactive,
        or its mounts fail), as a plan; None: nothing."""
        return None

    # Whether the RAM member must leave the target before a shutdown
    # (md: so that the next boot is an ordinary assembly); then
    # `svmram stop` runs plan_stop.
    stops = False

    def stop_aside(self, target):
        """Why `svmram stop` leaves `target` alone (words for a line), or
        None: asked before the host lock, since teardown stops the boot
        service while it holds that lock."""
        return None

    def plan_stop(self, host, intent):
        """The boot service's stop at shutdown, planned from the state
        found; a backend that needs none (stops False) refuses in its
        words."""
        raise UsageError("'stop' is a shutdown step %s does not need"
                         % self.words.system)

    def stop_done(self, target):
        """The line `svmram stop` prints when it is done."""
        return "%s: the %s is out." % (target, self.words.ram_copy)

    def run_by_boot_service(self):
        """Whether the boot service runs this svmram (its environment says
        so: SMF_FMRI, systemd's INVOCATION_ID); restore and stop then wait
        for the host lock."""
        return False

    def retry(self, host, target, intent):
        """The command that runs the boot service's restore of `target`
        again once this one failed, as the host is now."""
        return self.words.retry(target)

    def restore_openings(self, target):
        """Plans of one step each, for other targets, to run before the
        restore of `target` creates anything (SVM: open mirrors whose RAM
        component SVM still takes for Okay, so that a new ramdisk cannot
        take its recorded device number).  Each is (host, plan)."""
        return []

    def restore_refusal(self, failure, intent, host):
        """The RefusedError a failed restore step stands for, or None."""
        return None

    def failure_advice(self, failure, host, operation):
        """Advice for a failed step of `operation` (setup, restore) that
        the host's state explains better than "fix the cause", or None;
        the failure's message stays as it is."""
        return None

    # --- words for messages --------------------------------------------------

    @abc.abstractmethod
    def state_text(self, snap, target, intent):
        """The target as observed, for a report after a stop or a
        failure: each member's state, which hold current data, what is
        resyncing."""

    @abc.abstractmethod
    def rolled_back_text(self, snap, target, intent):
        """After a rollback: "T is as it was before." or what differs."""

    @abc.abstractmethod
    def setup_done(self, intent):
        """The line setup prints when it is done."""

    def unrecorded(self, host):
        """Teardown found no record of the target: a refusal that names
        what the host shows there instead (a RAM copy made by hand) and
        how to remove it, or None for the usual "not set up by svmram"."""
        return None

    @abc.abstractmethod
    def teardown_done(self, intent):
        """The line teardown prints when it is done."""

    @abc.abstractmethod
    def restore_done(self, intent, options):
        """The line restore prints when it is done (`options`: the
        backend's restore options, restore_options)."""

    @abc.abstractmethod
    def nothing_to_restore(self, snap, intent, options):
        """The line restore prints when there is nothing to do."""

    # --- status and check ----------------------------------------------------

    @abc.abstractmethod
    def statuses(self, target=None):
        """[(Status, Problems)] of `target`, or of every target the record
        store names, reading the host once (see the module's text)."""

    def status_report(self, target=None):
        """(statuses(target), the targets it left out: a list of
        {"target": name, "why": words}, status's JSON key left_out and a
        line of its text).  None is left out unless a backend says."""
        return self.statuses(target), []

    def why_nothing_set_up(self):
        """When the record store names no target: why none can be set
        up, in the backend's words, or None."""
        return None

    @abc.abstractmethod
    def check(self, target=None):
        """(host checks, verdicts) for `svmram check`: each check a dict
        {check, verdict ok/warning/FAIL, detail}; each verdict a dict
        {mirror, verdict ready/set up/refused, detail, advice?} plus the
        keys named in check_predictions, each a dict with a "text"."""

    check_predictions = ()

    # Where selftest's scratch files go unless --directory says; None: the
    # backend has no selftest.
    selftest_directory = None

    def setup_hint(self):
        """A line setup prints before it starts (a hint, not a refusal),
        or None."""
        return None

    def selftest(self, svmram, directory):
        """`svmram selftest`: a Report (svm/selftest.py) of the checks on
        a scratch target of its own, removed again; `svmram(argv)` runs
        one of svmram's subcommands and returns (status, stdout, stderr).
        Only a backend with a selftest_directory has one (and overrides
        this); the others refuse, in their words."""
        raise RefusedError(
            "svmram selftest has no checks for %s yet" % self.words.system,
            advice="Run 'svmram check', which says what setup would verify "
                   "on this host and changes nothing.")
