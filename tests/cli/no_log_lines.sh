#!/usr/bin/env bash
# no_log_lines.sh FILE: fails when FILE (a command's stdout) holds a log line: spdlog's
# "[2026-11-30 12:00:00.000] [info] ..." or any "[level]" tag.
if grep -Eq '\[(trace|debug|info|warning|warn|error|critical)\]' "$1"; then
  echo "log lines on stdout (they belong on stderr):"
  grep -E '\[(trace|debug|info|warning|warn|error|critical)\]' "$1"
  exit 1
fi
