"""The Debian package, as a user without Swift gets it.

scripts/package-deb.sh makes the package (a release build, kept in .build-release so the next
run only redoes what changed); it is unpacked with dpkg-deb into a temporary root, and its
folio is run in a mount namespace where an empty folder hides the Swift toolchain and the
source tree's theme, so it must live on the package and the libraries its Depends names.
dpkg -i is not used: it would change the machine the tests run on. Needs root (or user
namespaces) for unshare and mount, as the tests have here and in CI.

The release build takes minutes; FOLIO_SKIP_PACKAGE_TEST=1 skips these tests, and says so.
"""

import json
import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
PHOTO = REPOSITORY / "content" / "photo1.jpg"

if os.environ.get("FOLIO_SKIP_PACKAGE_TEST"):
    pytest.skip("FOLIO_SKIP_PACKAGE_TEST is set: the Debian package was neither made nor tested",
                allow_module_level=True)


def toolchain() -> Path:
    """The toolchain's root (/opt/swift), from the swiftc on PATH: usr/bin/swiftc in it."""
    swiftc = shutil.which("swiftc")
    assert swiftc, "no swiftc on PATH: the package cannot be made"
    return Path(swiftc).resolve().parents[2]


@pytest.fixture(scope="module")
def package() -> Path:
    made = subprocess.run(["bash", "scripts/package-deb.sh"], cwd=REPOSITORY, stdout=subprocess.PIPE, text=True)
    assert made.returncode == 0, "scripts/package-deb.sh failed (its errors are above)"
    deb = Path(made.stdout.strip().splitlines()[-1])
    assert deb.is_file() and deb.suffix == ".deb", made.stdout
    return deb


@pytest.fixture(scope="module")
def root(package, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("root")
    subprocess.run(["dpkg-deb", "-x", str(package), str(root)], check=True)
    return root


def field(package: Path, name: str) -> str:
    return subprocess.run(["dpkg-deb", "-f", str(package), name], check=True, stdout=subprocess.PIPE, text=True).stdout.strip()


def depends(package: Path) -> list[list[tuple[str, str | None]]]:
    """Depends as clauses of alternatives, each (package, version requirement or None)."""
    clauses = []
    for clause in field(package, "Depends").split(","):
        alternatives = []
        for alternative in clause.split("|"):
            match = re.fullmatch(r"\s*([a-z0-9][a-z0-9+.-]+)(?::any)?\s*(?:\(([^)]*)\))?\s*", alternative)
            assert match, f"cannot read the Depends clause {clause!r}"
            alternatives.append((match.group(1), match.group(2)))
        clauses.append(alternatives)
    return clauses


def package_of(library: str) -> str:
    """The Debian package owning a shared library, by its path or, merged /usr aside, its twin."""
    real = os.path.realpath(library)
    for path in [library, real] + [p[len("/usr"):] if p.startswith("/usr/") else "/usr" + p for p in (library, real)]:
        found = subprocess.run(["dpkg", "-S", path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if found.returncode == 0:
            return found.stdout.split(":")[0].strip()
    raise AssertionError(f"no package owns {library}")


def needed(binary: Path) -> dict[str, str]:
    """The libraries the binary names itself (DT_NEEDED), each with where ldd finds it."""
    dynamic = subprocess.run(["readelf", "-d", str(binary)], check=True, stdout=subprocess.PIPE, text=True).stdout
    names = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
    listing = ldd(binary)
    found = dict(re.findall(r"^\s*(\S+) => (\S+)", listing, re.M))
    # The dynamic loader is listed by its path alone: "/lib64/ld-linux-x86-64.so.2 (0x...)".
    found.update({os.path.basename(path): path for path in re.findall(r"^\s*(/\S+) \(0x", listing, re.M)})
    return {name: found.get(name, "not found") for name in names}


def opened(binary: Path) -> dict[str, str]:
    """The libraries the binary opens itself when it needs them (its dlopen note, as systemd's ELF
    dlopen metadata spells it: notes of owner "FDO", type 0x407c0c0a, a JSON array), each with
    where the dynamic loader's cache finds it."""
    section = subprocess.run(["objcopy", "-O", "binary", "--only-section=.note.dlopen", str(binary), "/dev/stdout"],
                             check=True, stdout=subprocess.PIPE).stdout
    sonames, at = [], 0
    while at + 12 <= len(section):
        name_size, text_size, kind = struct.unpack_from("<III", section, at)
        name_end = at + 12 + (name_size + 3) // 4 * 4
        owner = section[at + 12:at + 12 + name_size].rstrip(b"\0")
        text = section[name_end:name_end + text_size].rstrip(b"\0")
        if owner == b"FDO" and kind == 0x407C0C0A:
            sonames += [soname for feature in json.loads(text) for soname in feature["soname"]]
        at = name_end + (text_size + 3) // 4 * 4
    cache = subprocess.run(["ldconfig", "-p"], check=True, stdout=subprocess.PIPE, text=True).stdout
    found: dict[str, str] = {}
    for soname, path in re.findall(r"^\s*(\S+) \([^)]*\) => (\S+)", cache, re.M):
        found.setdefault(soname, path)
    return {soname: found.get(soname, "not found") for soname in sonames}


def ldd(binary: Path) -> str:
    return subprocess.run(["ldd", str(binary)], check=True, stdout=subprocess.PIPE, text=True).stdout


def without_swift(arguments: list[str], home: Path) -> subprocess.CompletedProcess:
    """Runs a command as a user without Swift would: in a mount namespace of its own, with empty
    folders over the toolchain and over this source tree's theme (which a folio built here would
    otherwise find through its source path), and the environment of a fresh login."""
    hide = f'mount -t tmpfs tmpfs "{toolchain()}" && mount -t tmpfs tmpfs "{REPOSITORY / "templates"}" && exec "$@"'
    namespace = ["unshare", "--mount", "--propagation", "private"]
    if os.geteuid() != 0:
        namespace.append("--map-root-user")
    environment = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}
    return subprocess.run(namespace + ["sh", "-c", hide, "sh"] + arguments, env=environment,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)


def test_the_package_holds_folio_and_its_theme_owned_by_root(package):
    listing = subprocess.run(["dpkg-deb", "-c", str(package)], check=True, stdout=subprocess.PIPE, text=True).stdout
    paths = {line.split()[-1] for line in listing.splitlines()}
    for path in ["./usr/bin/folio", "./usr/share/folio/templates/layout.mustache", "./usr/share/folio/templates/photo.mustache"]:
        assert path in paths, listing
    assert all(line.split()[1] == "root/root" for line in listing.splitlines()), listing
    assert field(package, "Package") == "folio"
    assert package.name == f"folio_{field(package, 'Version')}_{field(package, 'Architecture')}.deb"


def test_the_binary_needs_nothing_from_the_toolchain(root):
    binary = root / "usr/bin/folio"
    dynamic = subprocess.run(["readelf", "-d", str(binary)], check=True, stdout=subprocess.PIPE, text=True).stdout
    for line in dynamic.splitlines():
        if "RUNPATH" in line or "RPATH" in line:
            assert str(toolchain()) not in line, dynamic
    libraries = ldd(binary)
    assert "not found" not in libraries, libraries
    assert not re.search(r"libswift|libFoundation|libdispatch|libBlocksRuntime", libraries), libraries
    assert str(toolchain()) not in libraries, libraries


def test_depends_names_the_package_of_every_library_folio_links_or_opens_and_no_other(package, root):
    libraries = needed(root / "usr/bin/folio") | opened(root / "usr/bin/folio")
    assert "not found" not in libraries.values(), libraries
    linked = {package_of(path) for path in libraries.values()}
    named = {name for clause in depends(package) for name, _ in clause}
    assert linked == named, f"linked: {sorted(linked)}\nDepends: {field(package, 'Depends')}"
    # What folio is for: images (libgd, libjpeg-turbo), the model (SQLite), the network (libcurl).
    assert {"libgd3", "libturbojpeg0", "libsqlite3-0", "libcurl4", "libcmark0.30.2"} <= named, named


def test_ffmpeg_is_opened_at_the_first_video_not_linked(root):
    """FFmpeg's libraries (and the 78 they bring) cost every start of folio when linked: it opens
    them itself, by the sonames its note names, and links none of them."""
    binary = root / "usr/bin/folio"
    stems = {soname.split(".so")[0] for soname in opened(binary)}
    assert stems == {"libavutil", "libswresample", "libswscale", "libavcodec", "libavformat"}, opened(binary)
    assert not any(name.startswith(("libav", "libsw")) for name in needed(binary)), needed(binary)
    assert "libavcodec" not in ldd(binary), ldd(binary)


def test_every_dependency_is_installed_here_at_the_version_it_needs(package):
    for clause in depends(package):
        satisfied = []
        for name, requirement in clause:
            status = subprocess.run(["dpkg-query", "-W", "-f", "${Status}\t${Version}", name],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            if status.returncode != 0 or not status.stdout.startswith("install ok installed"):
                continue
            installed = status.stdout.split("\t")[1]
            if requirement:
                relation, version = requirement.split()
                operator = {">=": "ge", "<=": "le", ">>": "gt", "<<": "lt", "=": "eq"}[relation]
                if subprocess.run(["dpkg", "--compare-versions", installed, operator, version]).returncode != 0:
                    continue
            satisfied.append(name)
        assert satisfied, f"nothing installed satisfies {clause}"


def test_hiding_the_toolchain_stops_a_folio_that_needs_it(tmp_path):
    """The namespace really takes Swift away: the development build, which links the toolchain's
    runtime, cannot start in it."""
    development = Path(os.environ.get("FOLIO_BINARY", REPOSITORY / ".build" / "debug" / "folio"))
    if not development.is_file():
        pytest.skip(f"no development build at {development} to try")
    assert subprocess.run([str(development), "--version"], stdout=subprocess.DEVNULL).returncode == 0
    hidden = without_swift([str(development), "--version"], tmp_path)
    assert hidden.returncode != 0, hidden.stdout
    assert "libswift" in hidden.stderr or "libFoundation" in hidden.stderr, hidden.stderr
    listing = without_swift(["ls", "-A", str(toolchain())], tmp_path)
    assert listing.returncode == 0 and listing.stdout == "", listing


def test_the_packaged_folio_makes_and_builds_a_site_without_swift(package, root, tmp_path):
    folio = str(root / "usr/bin/folio")
    version = without_swift([folio, "--version"], tmp_path)
    assert version.returncode == 0, version.stderr
    commit = subprocess.run(["git", "rev-parse", "--short=7", "HEAD"], cwd=REPOSITORY, check=True,
                            stdout=subprocess.PIPE, text=True).stdout.strip()
    assert re.fullmatch(rf"folio {re.escape(field(package, 'Version'))} \(git {commit}(-modified)?, "
                        r"built [0-9]{4}-[0-9]{2}-[0-9]{2}\)\n", version.stdout), version.stdout

    site = tmp_path / "site"
    new = without_swift([folio, "new", str(site)], tmp_path)
    assert new.returncode == 0, new.stderr
    assert (site / "content").is_dir()
    shutil.copy(PHOTO, site / "content" / PHOTO.name)
    clip(site / "content" / "harbour.mp4")

    build = without_swift([folio, "build", "--site", str(site)], tmp_path)
    assert build.returncode == 0, build.stdout + build.stderr
    assert "error" not in build.stderr.lower(), build.stderr
    assert "2 photos" in build.stdout and "failed" not in build.stdout, build.stdout
    public = site / "public"
    assert (public / "index.html").is_file(), sorted(p.name for p in public.iterdir()) if public.exists() else "no public/"
    # The photo went through the C libraries: decoded, resampled and written as a JPEG rendition;
    # the video through FFmpeg's, opened by the packaged folio: its poster and its web video.
    renditions = [p for p in public.rglob("*.jpg") if p.stat().st_size > 0]
    assert len(renditions) >= 4, sorted(str(p.relative_to(public)) for p in public.rglob("*"))
    videos = [p for p in public.rglob("*.mp4") if p.stat().st_size > 0]
    assert len(videos) == 1, sorted(str(p.relative_to(public)) for p in public.rglob("*"))
    assert (public / "index.html").read_text(encoding="utf-8").count("<html") == 1


def test_a_folio_whose_ffmpeg_will_not_load_builds_its_photos_and_names_the_video(root, tmp_path):
    """Without FFmpeg (its libavformat unreadable here: /dev/null mounted over it) the photos are
    published and the video is named as failed with why, not a folio that cannot start."""
    folio = str(root / "usr/bin/folio")
    avformat = opened(root / "usr/bin/folio")
    avformat = next(path for soname, path in avformat.items() if soname.startswith("libavformat."))
    site = tmp_path / "site"
    (site / "content").mkdir(parents=True)
    shutil.copy(PHOTO, site / "content" / PHOTO.name)
    clip(site / "content" / "harbour.mp4")
    hide = f'mount --bind /dev/null "{os.path.realpath(avformat)}" && exec "$@"'
    build = without_swift(["sh", "-c", hide, "sh", folio, "build", "--site", str(site)], tmp_path)
    assert build.returncode == 0, build.stdout + build.stderr
    assert build.stdout.startswith("1 photo,") and "1 photo failed" in build.stdout, build.stdout
    named = [line for line in build.stderr.splitlines() if "content/harbour.mp4" in line]
    assert named and "FFmpeg's libraries would not load" in named[0] and "libavformat.so" in named[0], build.stderr
    public = site / "public"
    assert [p for p in public.rglob("*.jpg") if p.stat().st_size > 0], sorted(public.rglob("*"))
    assert not list(public.rglob("*.mp4"))


def clip(path: Path):
    """Two seconds of H.264 video, as the ffmpeg command line writes it."""
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2",
                    "-c:v", "libx264", "-pix_fmt", "yuv420p", str(path)], check=True, timeout=120)
