#!/usr/bin/env bash
# no_log_lines.sh FILE: fails when FILE (a command's stdout) holds a log line. credit logs through spdlog's default
# pattern, "[2026-11-30 12:00:00.000] [info] ..." (a logger name in brackets may come between), so a log line starts
# with a bracketed timestamp and names its level in brackets; help text that shows a default such as "[info]" is data.
log_line='^\[[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?\] (\[[^]]*\] )?\[[^]]*(trace|debug|info|warning|warn|error|critical)[^]]*\]'
if grep -Eq -- "$log_line" "$1"; then
  echo "log lines on stdout (they belong on stderr):"
  grep -E -- "$log_line" "$1"
  exit 1
fi
