#!/usr/bin/env python3
"""What a Folio build's heap holds at a moment, by where it was allocated, from a heaptrack trace.

heaptrack's own report gives each allocation site's peak, each at its own moment; a build's peak is
one moment, inside one step. This replays the trace (`heaptrack -o trace folio build ...` writes
trace.zst) and reports:

    scripts/heap-at.py trace.zst                  the heap in use every half second, and its peak
    scripts/heap-at.py trace.zst --from 630 --to 660
                                                  the same, between two moments (seconds from start)
    scripts/heap-at.py trace.zst --at 659.9       the bytes in use at that moment, by the first frame
                                                  under Sources/ of each allocation's stack
    scripts/heap-at.py trace.zst --at 640 --past NumberTable.swift
                                                  the same, a shared type's allocations put to its callers

Match moments to steps with the build's `--timings` (each step's seconds, in order; heaptrack slows
the build, so read them from the traced run). Needs `zstdcat` (the zstd package).
"""

import argparse
import collections
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace", help="heaptrack's trace, a .zst file")
    parser.add_argument("--from", dest="start", type=float, default=0, help="seconds from the start")
    parser.add_argument("--to", dest="end", type=float, default=float("inf"), help="seconds from the start")
    parser.add_argument("--at", type=float, help="the moment to break down, in seconds from the start")
    parser.add_argument("--top", type=int, default=30, help="how many sites to list (with --at)")
    parser.add_argument("--past", action="append", default=[], metavar="FILE",
                        help="a source file (e.g. NumberTable.swift) whose frames are passed over for their caller's; may be repeated")
    options = parser.parse_args()

    # The trace is heaptrack's interpreted format, one record a line, numbers in hex:
    # `s` a string, `i` an instruction (address, module, then function, file and line for it
    # and for each frame inlined there), `t` a stack frame (instruction, parent frame),
    # `a` an allocation kind (size, frame), `+` / `-` one allocated / freed of a kind,
    # `c` the time in milliseconds.
    strings, instructions, frames = [None], [None], [None]
    sizes, kind_frames, live = [], [], []
    in_use, now, peak, samples = 0, 0, (0, 0), []
    start, end = options.start * 1000, options.end * 1000
    moment = options.at * 1000 if options.at is not None else None
    reader = subprocess.Popen(["zstdcat", options.trace], stdout=subprocess.PIPE, bufsize=1 << 20)
    for line in reader.stdout:
        kind = line[0]
        if kind == ord("+"):
            at = int(line[2:], 16)
            live[at] += 1
            in_use += sizes[at]
        elif kind == ord("-"):
            at = int(line[2:], 16)
            live[at] -= 1
            in_use -= sizes[at]
        elif kind == ord("a"):
            size, frame = line[2:].split()
            sizes.append(int(size, 16))
            kind_frames.append(int(frame, 16))
            live.append(0)
        elif kind == ord("c"):
            now = int(line[2:], 16)
            if moment is not None and now >= moment:
                break
            if moment is None and now > end:
                break
            if now >= start:
                if in_use > peak[0]:
                    peak = (in_use, now)
                if not samples or now - samples[-1][0] >= 500:
                    samples.append((now, in_use))
        elif kind == ord("t"):
            instruction, parent = line[2:].split()
            frames.append((int(instruction, 16), int(parent, 16)))
        elif kind == ord("i"):
            instructions.append(line[2:].split())
        elif kind == ord("s"):
            strings.append(line[2:].decode(errors="replace").rstrip("\n").split(" ", 1)[-1])
    reader.kill()

    if moment is None:
        print(f"peak {peak[0] / 1e6:.1f} MB at {peak[1] / 1000:.1f} s")
        for time, size in samples:
            print(f"{time / 1000:8.1f} s {size / 1e6:8.1f} MB")
        return

    def source_line(instruction):
        fields = instructions[instruction][2:]
        for at in range(0, len(fields) - 2, 3):
            file, number = int(fields[at + 1], 16), int(fields[at + 2], 16)
            name = strings[file] if file < len(strings) else None
            if name and "Sources/" in name and not any(name.endswith("/" + past) for past in options.past):
                return f"{strings[file].split('Sources/')[-1]}:{number}"
        return None

    sites = {}

    def site(frame):
        walked = []
        while frame and frame not in sites:
            walked.append(frame)
            instruction, parent = frames[frame]
            found = source_line(instruction)
            if found:
                sites.update((each, found) for each in walked)
                return found
            frame = parent
        found = sites.get(frame, "(no frame under Sources/)")
        sites.update((each, found) for each in walked)
        return found

    by_site = collections.Counter()
    for at, count in enumerate(live):
        if count:
            by_site[site(kind_frames[at])] += count * sizes[at]
    print(f"{in_use / 1e6:.1f} MB in use at {now / 1000:.1f} s")
    for where, size in by_site.most_common(options.top):
        print(f"{size / 1e6:8.2f} MB  {where}")


if __name__ == "__main__":
    sys.exit(main())
