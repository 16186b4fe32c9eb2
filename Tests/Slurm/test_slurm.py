"""A sharded cold build on a real Slurm cluster, against one machine's build of the same site.

The test starts a one-node cluster of its own (munged, slurmctld and slurmd as root, in the
foreground, in a temporary folder, on free ports, from Tests/Slurm/slurm.conf.in) and submits
scripts/slurm/folio-shards.sbatch as a four-task job array in a site's folder. It throws one
bundle away, as if its task had died, and submits the array again, as a user would after a failed
task (only what is missing is made), with scripts/slurm/folio-final.sbatch depending on it
(--dependency=afterok). It waits, and compares public/ with a plain `folio build` of a copy of the
site, byte for byte. The daemons are stopped by their PIDs at the end.

Uses the folio the test command builds (.build/debug/folio; FOLIO_BINARY overrides it).
scripts/setup.sh installs slurmctld, slurmd, slurm-client and munge; without them the test is
skipped and says so.
"""

import datetime
import os
import plistlib
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
FOLIO = Path(os.environ.get("FOLIO_BINARY", REPOSITORY / ".build" / "debug" / "folio"))
SCRIPTS = REPOSITORY / "scripts" / "slurm"
PROGRAMS = ["munged", "munge", "slurmctld", "slurmd", "sbatch", "sinfo", "scontrol"]
TASKS = 4

# Photos of the demo site, of many sizes (so the shares must be balanced by pixels), the one
# large enough for tiles among them.
PHOTOS = [
    "photo1.jpg", "photo2.jpg", "photo3.jpg", "cc0/rocket.jpg", "cc0/hubble_deep_field.jpg",
    "library/evening-on-the-tagus.jpg", "library/_MG_7805.jpg", "cc0/retina.jpg",
    "photos/houston-skyline-night.jpg", "photos/lisbon-rooftops.jpg", "photos/skye-ridges.jpg",
]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """The daemons of a one-node cluster, each a child process of the test."""

    def __init__(self, folder):
        self.folder = folder
        self.children = []
        self.env = {**os.environ, "SLURM_CONF": str(folder / "slurm.conf")}

    def start(self):
        munge = self.folder / "munge"
        for sub in ["munge", "state", "spool"]:
            (self.folder / sub).mkdir(mode=0o700)
        key = munge / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
        conf = (Path(__file__).parent / "slurm.conf.in").read_text()
        for name, value in {"HOST": socket.gethostname(), "CTLD_PORT": free_port(), "D_PORT": free_port(),
                            "DIR": self.folder, "CPUS": os.cpu_count() or 1}.items():
            conf = conf.replace(f"@{name}@", str(value))
        (self.folder / "slurm.conf").write_text(conf)
        self.spawn("munged", ["munged", "-F", "-f", f"--socket={munge}/munge.socket", f"--key-file={key}",
                              f"--log-file={munge}/munged.log", f"--pid-file={munge}/munged.pid",
                              f"--seed-file={munge}/munged.seed"])
        self.wait_for(lambda: (munge / "munge.socket").exists(), "munged to open its socket")
        conf_file = str(self.folder / "slurm.conf")
        self.spawn("slurmctld", ["slurmctld", "-D", "-f", conf_file])
        self.spawn("slurmd", ["slurmd", "-D", "-f", conf_file])
        self.wait_for(lambda: self.run(["sinfo", "-h", "-o", "%t"], check=False).stdout.strip() == "idle",
                      "the node to be idle")

    def spawn(self, name, command):
        log = open(self.folder / f"{name}.out", "wb")
        self.children.append((name, subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=self.env)))

    def stop(self):
        for name, child in reversed(self.children):
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
                try:
                    child.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    child.kill()
                    child.wait()

    def logs(self):
        return "\n".join(f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}"
                         for path in sorted(self.folder.glob("*.out")) + sorted(self.folder.glob("*.log")))

    def wait_for(self, condition, what, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name, child in self.children:
                if child.poll() is not None:
                    pytest.fail(f"{name} exited with status {child.returncode} while waiting for {what}\n{self.logs()}")
            if condition():
                return
            time.sleep(0.5)
        pytest.fail(f"timed out waiting for {what}\n{self.logs()}")

    def run(self, command, check=True, **kwargs):
        result = subprocess.run(command, env=self.env, capture_output=True, text=True, timeout=120, **kwargs)
        if check and result.returncode != 0:
            pytest.fail(f"{' '.join(map(str, command))}: {result.stderr}\n{self.logs()}")
        return result

    def state(self, job):
        """Each of the job's tasks' state (COMPLETED, FAILED, PENDING…), from slurmctld."""
        shown = self.run(["scontrol", "show", "job", "-o", str(job)], check=False).stdout
        return re.findall(r"JobState=(\S+)", shown)


@pytest.fixture
def cluster(tmp_path):
    absent = [program for program in PROGRAMS if shutil.which(program) is None]
    if absent:
        pytest.skip(f"Slurm is not installed here (no {', '.join(absent)}): scripts/setup.sh installs "
                    "slurmctld, slurmd, slurm-client and munge")
    if os.geteuid() != 0:
        pytest.fail("the test cluster's slurmd runs jobs as other users, so it must start as root")
    if not FOLIO.exists():
        pytest.fail(f"{FOLIO} is missing: build it first (swift build), or set FOLIO_BINARY")
    folder = tmp_path / "cluster"
    folder.mkdir()
    folder.chmod(0o755)
    running = Cluster(folder)
    try:
        running.start()
        yield running
    finally:
        running.stop()


def make_site(folder):
    """The photos with a catalog that dates every upload, so two builds agree to the byte, and a
    JPEG cut short, whose header imports and whose pixels do not decode."""
    content = folder / "content"
    records = []
    for number, photo in enumerate(PHOTOS):
        target = content / photo
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPOSITORY / "content" / photo, target)
        records.append({"path": photo, "name": f"Photo {number}", "user": ["Ana", "Bo", "Cy"][number % 3],
                        "uploaded": datetime.datetime(2025, 3, 1, 12, 0) + datetime.timedelta(hours=number)})
    whole = (REPOSITORY / "content" / "photos" / "bluebonnets.jpg").read_bytes()
    (content / "broken.jpg").write_bytes(whole[: len(whole) // 3])
    records.append({"path": "broken.jpg", "name": "Broken", "user": "Ana", "uploaded": datetime.datetime(2025, 3, 2)})
    with open(content / "FakeData.plist", "wb") as catalog:
        plistlib.dump(records, catalog)
    return folder


def tree(folder):
    """Every file of a built site but the build's own state (when and how it was built)."""
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and path.name not in (".folio-build", ".folio-pages")}


def theme_env():
    return {**os.environ, "FOLIO_THEME": str(REPOSITORY / "templates")}


def submit(cluster, site, final=True):
    """The README's recipe: the array, then the final build once every task has succeeded."""
    env = {**theme_env(), "SLURM_CONF": cluster.env["SLURM_CONF"], "FOLIO": str(FOLIO)}
    common = ["--parsable", f"--chdir={site}", "--cpus-per-task=1", "--export=ALL"]
    array = subprocess.run(["sbatch", *common, f"--array=0-{TASKS - 1}", str(SCRIPTS / "folio-shards.sbatch")],
                           env=env, capture_output=True, text=True, check=True).stdout.strip().split(";")[0]
    if not final:
        return array, None
    final = subprocess.run(["sbatch", *common, f"--dependency=afterok:{array}", str(SCRIPTS / "folio-final.sbatch")],
                           env=env, capture_output=True, text=True, check=True).stdout.strip().split(";")[0]
    return array, final


def wait_done(cluster, job, timeout=900):
    done = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY"}
    cluster.wait_for(lambda: (states := cluster.state(job)) and all(state in done for state in states),
                     f"job {job} to finish", timeout=timeout)
    return cluster.state(job)


def shard_logs(site, array):
    return {int(path.stem.rsplit("_", 1)[1]): path.read_text() for path in site.glob(f"folio-shard-{array}_*.log")}


def test_a_job_array_and_a_final_job_build_one_machines_site(cluster, tmp_path):
    alone = make_site(tmp_path / "alone")
    built = subprocess.run([str(FOLIO), "build", "--site", str(alone)], env=theme_env(), capture_output=True, text=True)
    assert built.returncode == 0, built.stderr

    site = make_site(tmp_path / "sharded")
    # A first array, one of whose tasks "crashes": its last bundle is lost.
    first, _ = submit(cluster, site, final=False)
    assert wait_done(cluster, first) == ["COMPLETED"] * TASKS, cluster.logs()
    bundles = sorted((site / "folio-cache" / "renditions").rglob("*.bundle"))
    assert len(bundles) == len(PHOTOS) + 1, bundles
    bundles[0].unlink()

    # Submitted again with the final job: only the lost bundle is made again.
    array, final = submit(cluster, site)
    assert wait_done(cluster, array) == ["COMPLETED"] * TASKS, cluster.logs()
    assert wait_done(cluster, final) == ["COMPLETED"], cluster.logs() + (site / f"folio-final-{final}.log").read_text()

    logs = shard_logs(site, array)
    assert sorted(logs) == list(range(TASKS)), logs
    made = cached = 0
    for task, log in logs.items():
        assert f"shard {task + 1}/{TASKS}, from Slurm (SLURM_ARRAY_TASK_ID={task}" in log, log
        counts = re.search(r"(\d+) made, (\d+) already in the cache, (\d+) failed", log)
        made += int(counts.group(1)) + int(counts.group(3))
        cached += int(counts.group(2))
    assert (made, cached) == (1, len(PHOTOS)), logs
    balance = re.search(r"busiest shard ([\d.]+)% over the mean", logs[0]).group(1)
    print(f"\npixel balance over {TASKS} shards: busiest {balance}% over the mean")

    final_log = (site / f"folio-final-{final}.log").read_text()
    assert " 0 renditions made" in final_log, final_log
    assert "renditions taken from the rendition cache" in final_log, final_log
    assert "broken.jpg" in final_log, "a photo that failed in a shard is the final build's failure: " + final_log

    sharded, one = tree(site / "public"), tree(alone / "public")
    assert sorted(sharded) == sorted(one)
    assert [name for name in sharded if sharded[name] != one[name]] == []
    assert len(sharded) > 30
