# The shapes of a sweep where partial, partial_one or split_global is the fastest kernel, against the fastest of the
# other schedules in the same file (same run): the wide-row schedules' gain where they were first built in bf16
# (forty-second session). Usage: jq -r -f scripts/new-schedule-wins.jq SWEEP.json
[.points[] | select(.disposition=="passed" and .schedule!="copy" and .schedule!="control")]
| group_by([.workload,.m,.n])
| map({w:.[0].workload, m:.[0].m, n:.[0].n,
       best:(min_by(.time_ms.median)|"\(.schedule)/\(.p)"),
       t:(min_by(.time_ms.median).time_ms.median),
       old:([.[]|select(.schedule as $s | ["partial","partial_one","split_global"]|index($s)|not)]|if length>0 then min_by(.time_ms.median).time_ms.median else null end)})
| map(select(.best|test("^(partial|partial_one|split_global)/")))
| map("\(.w) \(.m)x\(.n) \(.best) \(.t*1000|round/1000) vs \(if .old then (.old*1000|round/1000) else "none" end) gain \(if .old then ((.old/.t-1)*1000|round/10) else "-" end)%")
| .[]
