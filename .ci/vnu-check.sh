#!/usr/bin/env bash
# vnu-check.sh DIR: checks every .html file under DIR with the W3C Nu HTML
# checker (vnu.jar from the vnu-jar npm package), in one JVM start.
#
#   bash .ci/vnu-check.sh DIR        exit 0: no errors; 1: HTML errors (or no
#                                    .html file under DIR); 2: usage / tool missing
#   bash .ci/vnu-check.sh --self-test  checks .ci/testdata/vnu/{valid,invalid}
#
# Errors are printed by vnu on stderr as  "file:LINE.COL: error: MESSAGE".
# The tools folder is $DAAWID_CI_TOOLS if set, else the folder of this script.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tools="${DAAWID_CI_TOOLS:-$here}"
jar="$tools/node_modules/vnu-jar/build/dist/vnu.jar"

die() { echo "vnu-check: $*" >&2; exit 2; }

if [[ $# -ne 1 || "$1" == -h || "$1" == --help ]]; then
  echo "usage: bash .ci/vnu-check.sh DIR | --self-test" >&2
  exit 2
fi

if [[ "$1" == --self-test ]]; then
  fail=0
  if out="$(bash "$here/vnu-check.sh" "$here/testdata/vnu/valid" 2>&1)"; then
    echo "ok   valid page passes"
  else
    echo "FAIL valid page: $out"; fail=1
  fi
  set +e
  out="$(bash "$here/vnu-check.sh" "$here/testdata/vnu/invalid" 2>&1)"; rc=$?
  set -e
  if [[ $rc -eq 1 && "$out" == *"error:"* && "$out" != *notes.txt* ]]; then
    echo "ok   invalid page fails: $(grep -c 'error:' <<<"$out") error(s), e.g. $(grep -m1 'error:' <<<"$out")"
  else
    echo "FAIL invalid page: exit $rc, output: $out"; fail=1
  fi
  if [[ $fail -eq 0 ]]; then echo "vnu-check self-test ok: 2 cases"; else echo "vnu-check self-test FAILED"; fi
  exit $fail
fi

dir="$1"
[[ -d "$dir" ]] || die "not a directory: $dir"
[[ -f "$jar" ]] || die "missing $jar; run DAAWID_CI_SKIP_TESTS=1 bash .ci/run to install it"
command -v java >/dev/null || die "java not found on PATH (Java 17+ is needed)"

files=()
while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$dir" -type f -name '*.html' -print0 | sort -z)
if [[ ${#files[@]} -eq 0 ]]; then
  echo "vnu-check: no .html files under $dir" >&2
  exit 1
fi

# vnu exits 1 when it reports an error; its messages go to stderr.
if java -jar "$jar" --errors-only --skip-non-html "${files[@]}"; then
  echo "vnu-check: ok ${#files[@]} files"
else
  rc=$?
  echo "vnu-check: HTML errors in ${#files[@]} checked file(s) under $dir (vnu exit $rc)" >&2
  exit 1
fi
