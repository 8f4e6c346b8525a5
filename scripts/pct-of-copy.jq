# Usage: jq -c -f scripts/pct-of-copy.jq SWEEP.json  (gunzip a .json.gz first)
# Per width N: the geomean, the lowest and the count at >= 88% of copy, over the shapes of a sweep file.
# credit's fastest passed kernel per shape over credit's copy of the same bytes (same run)
[.points[] | select(.schedule != "control")] | group_by([.workload, .m, .n]) | map(
  (map(select(.schedule == "copy"))[0].time_ms.median) as $copy |
  (map(select(.schedule != "copy" and .disposition == "passed")) | min_by(.time_ms.median)) as $best |
  {w: $best.workload, m: $best.m, n: $best.n, s: $best.schedule, p: $best.p, pct: (100 * $copy / $best.time_ms.median)})
| group_by(.n)[] | {n: .[0].n,
  geomean: (100 * ((map(.pct / 100 | log) | add / length) | exp) | . * 10 | round / 10),
  min: (min_by(.pct) | "\(.pct * 10 | round / 10) \(.w) \(.s) P=\(.p)"),
  at_least_88: "\(map(select(.pct >= 88)) | length)/\(length)"}
