# Per M and ladder rung (schedule, submission) of a seed 001 ladder file: the passed point of least median host time
# (the megakernel's default barrier, no switches; floors left out), as {"M|rung": {us, p}}.
# Usage: jq -f scripts/ladder-best-rungs.jq ladder-seed001.json
[.points[] | select(.disposition=="passed" and (.variant=="" or .variant=="auto") and .schedule!="copy" and .schedule!="empty_kernel")]
| group_by([.m, .schedule, .submission])
| map({m:.[0].m, rung:"\(.[0].schedule), \(.[0].submission)", best:(min_by(.time_ms.median))})
| map({key:"\(.m)|\(.rung)", value:{us:(.best.time_ms.median*10000|round/10), p:.best.p}}) | from_entries
