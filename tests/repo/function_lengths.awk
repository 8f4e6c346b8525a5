# function_lengths.awk -v max=N FILE...: prints "FILE:LINE: N lines" for each function body longer than max lines,
# LINE where its opening brace is (tests/repo/product_checks.sh limits).
#
# A heuristic, not a parser: comments, string and character literals and preprocessor lines are dropped, then
# braces are counted. A brace opened where every enclosing brace is a namespace's, a class's or an extern "C"
# block's (namespace level or class level) opens a function body when the text since the previous ';', '{' or '}'
# holds a ')' and does not end with '=' (an initializer) nor start a class declaration; its length is the lines
# from that brace to its closing brace, both counted. Lambdas and blocks inside a body count toward the body.
# Not handled: a brace in a constructor's member initializer list ends the count early; a raw string literal's
# delimiter is read as letters and underscores only.
# What the brace after the text h opens: "fn" (a function body), "scope" (a namespace, class or extern "C" block:
# functions may open inside), "other" (an initializer, a variable's braces).
function classify(h) {
  sub(/^[ \t]+/, "", h); sub(/[ \t]+$/, "", h)
  if (h ~ /=$/) return "other"
  if (h ~ /\)/ && h !~ /^(template[ \t]*<[^{]*>[ \t]*)?(struct|class|union)[ \t]/) return "fn"
  if (h ~ /(^|[^A-Za-z0-9_])(namespace|struct|class|union|enum)([^A-Za-z0-9_]|$)/ || h ~ /extern[ \t]*""$/) return "scope"
  return "other"
}
FNR == 1 { depth = 0; open_fn = 0; hdr = ""; in_block = 0; in_raw = 0; cont = 0 }
{
  line = $0
  if (in_raw) {
    i = index(line, raw_end)
    if (!i) next
    line = substr(line, i + length(raw_end)); in_raw = 0
  }
  if (in_block) {
    i = index(line, "*/")
    if (!i) next
    line = substr(line, i + 2); in_block = 0
  }
  if (cont) { cont = (line ~ /\\$/); next }
  if (line ~ /^[ \t]*#/) { cont = (line ~ /\\$/); next }
  if (match(line, /R"[A-Za-z_]*\(/)) {
    delim = substr(line, RSTART + 2, RLENGTH - 3)
    raw_end = ")" delim "\""
    rest = substr(line, RSTART + RLENGTH)
    i = index(rest, raw_end)
    if (i) line = substr(line, 1, RSTART - 1) "\"\"" substr(rest, i + length(raw_end))
    else { line = substr(line, 1, RSTART - 1) "\"\""; in_raw = 1 }
  }
  gsub(/\\./, "", line)
  gsub(/"[^"]*"/, "\"\"", line)
  gsub(/'[^']*'/, "''", line)
  sub(/\/\/.*/, "", line)
  while ((i = index(line, "/*"))) {
    rest = substr(line, i + 2); j = index(rest, "*/")
    if (j) line = substr(line, 1, i - 1) " " substr(rest, j + 2)
    else { line = substr(line, 1, i - 1); in_block = 1 }
  }
  n = length(line)
  for (k = 1; k <= n; k++) {
    c = substr(line, k, 1)
    if (c == "{") {
      outer = (depth == 0 || all_scope[depth])
      kind[++depth] = classify(hdr)
      all_scope[depth] = outer && kind[depth] == "scope"
      if (outer && kind[depth] == "fn" && !open_fn) { open_fn = depth; start = FNR }
      hdr = ""
    } else if (c == "}") {
      if (open_fn && depth == open_fn) {
        len = FNR - start + 1
        if (len > max) printf "%s:%d: %d lines\n", FILENAME, start, len
        open_fn = 0
      }
      if (depth > 0) depth--
      hdr = ""
    } else if (c == ";") {
      hdr = ""
    } else {
      hdr = hdr c
    }
  }
  hdr = hdr " "
}
