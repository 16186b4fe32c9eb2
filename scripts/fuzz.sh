#!/usr/bin/env bash
# Fuzzes Folio's readers with libFuzzer and AddressSanitizer (the package in Fuzz/):
#   scripts/fuzz.sh [seconds per target, default 600] [target ...]
# Targets: catalog, exif, image, request, flickr, metadata, paths, video, markdown, settings, takeout, raw, archive (all by default). Each starts from its seeds
# in Fuzz/Corpus/<target>/ and keeps what it learns in Fuzz/work/<target>/ (git-ignored). An
# input that crashes, leaks or hangs is kept in Fuzz/Regressions/<target>/, which the test
# suite replays (FuzzRegressionTests); the figures of each run end up in Fuzz/work/report.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(catalog exif image request flickr metadata paths video markdown settings takeout raw archive)

# -sanitize=fuzzer would link libFuzzer's own main, which SwiftPM's executables cannot use:
# coverage is asked for by hand and the no-main runtime linked, its driver called from ours.
runtime=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")/lib/swift/clang/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a
swift build --package-path Fuzz -c release \
  -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
  -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -gnone -Xcc -g0 -Xlinker "$runtime" -Xlinker -lstdc++

export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0"
mkdir -p Fuzz/work
: > Fuzz/work/report.txt
for target in "${targets[@]}"; do
  mkdir -p "Fuzz/work/$target" "Fuzz/Regressions/$target"
  log="Fuzz/work/$target.log"
  # LibRaw's leaks are told apart by its frames (lsan.supp), which only the slow unwinder finds
  # in a library built without frame pointers.
  unwind=1
  [ "$target" != raw ] || unwind=0
  set +e
  ASAN_OPTIONS="fast_unwind_on_malloc=$unwind" FOLIO_FUZZ_TARGET="$target" Fuzz/.build/release/folio-fuzz -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 -artifact_prefix="Fuzz/Regressions/$target/" -print_final_stats=1 \
    "Fuzz/work/$target" "Fuzz/Corpus/$target" > "$log" 2>&1
  status=$?
  set -e
  runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$" || echo "?")
  coverage=$(grep -oE "cov: [0-9]+" "$log" | tail -n 1 | grep -oE "[0-9]+" || echo "?")
  line="$target: ${seconds} s, $runs runs, coverage $coverage edges, exit $status"
  echo "$line" | tee -a Fuzz/work/report.txt
done
