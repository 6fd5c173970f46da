# Stages for test.sh (sourced): each one timed, a summary table at the end whatever happens, and
# stages that share nothing run side by side with their output in a log of their own.
#
#   stage NAME CMD...     runs CMD here (its output as it comes); a failure ends the run
#   stage_bg NAME CMD...  runs CMD in the background, its output into $STAGE_LOGS/NAME.log
#   stage_join            waits for every background stage, shows each one's log (all of it if it
#                         failed, its last lines if not) and ends the run if one failed
#   stage_cleanup CMD     (inside a stage) CMD runs when that stage ends, however it ends
#   on_exit NAME CMD      cleanup for the end of the run; `done_exit NAME` runs it now and forgets it
#
# A stage's tests are counted from its output (unittest's "Ran N tests", Surefire's "Tests run:"
# totals, node's "# pass N"): the run's last line is "N passed, N failed" over all of them.
# CMD is a shell function or command; it runs under `set -euo pipefail`. With TEST_SERIAL=1 every
# stage runs in the foreground, one after another (live output, no overlap).

STAGE_LOGS=$(mktemp -d /tmp/codeinterp-stages.XXXXXX)
STAGE_START=$(date +%s)
STAGE_ROWS=() # "name<TAB>seconds<TAB>result<TAB>passed<TAB>failed"
STAGE_BG=() # "pid<TAB>name<TAB>started"
EXIT_NAMES=()
EXIT_CMDS=()

# The file of a stage's log (and of its end time), named after the stage.
stage_file() {
  echo "$STAGE_LOGS/$(tr -c 'A-Za-z0-9\n' '-' <<<"$1")"
}

stage() {
  local name=$1 started rc=0
  shift
  echo "== $name"
  started=$(date +%s)
  set +e
  ( trap 'stage_end "$name"' EXIT; set -euo pipefail; "$@" ) 2>&1 | tee "$(stage_file "$name").log"
  rc=${PIPESTATUS[0]}
  set -e
  stage_record "$name" "$started" "$rc"
  [ "$rc" = 0 ] || exit "$rc"
}

stage_bg() {
  local name=$1 log
  if [ "${TEST_SERIAL:-}" = 1 ]; then
    stage "$@"
    return
  fi
  shift
  log="$(stage_file "$name").log"
  echo "== $name: started in the background (log: $log)"
  # its own process group (set -m), so a run that ends early can stop all of it
  set -m
  ( trap 'exit 143' TERM; trap 'stage_end "$name"' EXIT; set -euo pipefail; "$@" ) \
    > "$log" 2>&1 &
  set +m
  STAGE_BG+=("$!	$name	$(date +%s)")
}

stage_join() {
  local entry pid name started rc failed=0 file
  for entry in "${STAGE_BG[@]}"; do
    IFS=$'\t' read -r pid name started <<<"$entry"
    file=$(stage_file "$name")
    rc=0
    wait "$pid" || rc=$?
    # the time it ended, not when this loop got to it
    stage_record "$name" "$started" "$rc" "$(cat "$file.end" 2>/dev/null || date +%s)"
    if [ "$rc" = 0 ]; then
      echo "== $name (background, passed; its last lines, the whole log in $file.log)"
      tail -n 15 "$file.log"
    else
      echo "== $name (background, FAILED with status $rc; its whole log)"
      cat "$file.log"
      failed=$rc
    fi
  done
  STAGE_BG=()
  [ "$failed" = 0 ] || exit "$failed"
}

# Inside a stage: CMD runs when the stage ends, however it ends (the stage's servers, clusters).
stage_cleanup() {
  STAGE_CLEANUP="$1; ${STAGE_CLEANUP:-}"
}

stage_end() {
  eval "${STAGE_CLEANUP:-}" || true
  date +%s > "$(stage_file "$1").end"
}

stage_record() {
  local name=$1 started=$2 rc=$3 ended=${4:-$(date +%s)} counts
  counts=$(stage_counts "$(stage_file "$name").log")
  if [ "$rc" != 0 ] && [ "${counts#*	}" = 0 ]; then
    counts="${counts%	*}	1" # a stage that failed outside its tests (a build, a script) counts as one failure
  fi
  STAGE_ROWS+=("$name	$((ended - started))	$([ "$rc" = 0 ] && echo passed || echo "FAILED ($rc)")	$counts")
}

# "passed<TAB>failed" of the tests a stage's log reports (0 0 when it runs none)
stage_counts() {
  awk '
    /^Ran [0-9]+ tests? in / { ran = $2 }
    /^(OK|FAILED)( \(|$)/ && ran != "" {
      f = 0
      if (match($0, /failures=[0-9]+/)) f += substr($0, RSTART + 9, RLENGTH - 9)
      if (match($0, /errors=[0-9]+/)) f += substr($0, RSTART + 7, RLENGTH - 7)
      s = match($0, /skipped=[0-9]+/) ? substr($0, RSTART + 8, RLENGTH - 8) : 0
      pass += ran - f - s; fail += f; ran = ""
    }
    /^\[(INFO|WARNING|ERROR)\] Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+$/ {
      gsub(/,/, ""); pass += $4 - $6 - $8 - $10; fail += $6 + $8
    }
    /^(# |ℹ )pass [0-9]+$/ { pass += $3 }
    /^(# |ℹ )fail [0-9]+$/ { fail += $3 }
    END { printf "%d\t%d", pass, fail }
  ' "$1" 2>/dev/null || printf '0\t0'
}

on_exit() {
  EXIT_NAMES+=("$1")
  EXIT_CMDS+=("$2")
}

done_exit() {
  local i
  for i in "${!EXIT_NAMES[@]}"; do
    if [ "${EXIT_NAMES[$i]}" = "$1" ]; then
      eval "${EXIT_CMDS[$i]}" || true
      unset 'EXIT_NAMES[i]' 'EXIT_CMDS[i]'
    fi
  done
}

stage_summary() {
  local rc=$? entry pid name started row passed=0 failed=0 p f i
  trap - EXIT
  set +e
  for entry in "${STAGE_BG[@]}"; do # the run ended before their join: stop them
    IFS=$'\t' read -r pid name started <<<"$entry"
    kill -TERM -- "-$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    stage_record "$name" "$started" "stopped"
    echo "== $name (background, stopped: the run ended; its log)"
    cat "$(stage_file "$name").log"
  done
  for i in $(printf '%s\n' "${!EXIT_CMDS[@]}" | sort -rn); do # the last one first
    eval "${EXIT_CMDS[$i]}"
  done
  echo
  echo "== summary (wall clock $(($(date +%s) - STAGE_START)) s; logs in $STAGE_LOGS)"
  printf '%-52s %8s  %-16s %7s %7s\n' stage seconds result passed failed
  for row in "${STAGE_ROWS[@]}"; do
    IFS=$'\t' read -r name seconds result p f <<<"$row"
    printf '%-52s %8s  %-16s %7s %7s\n' "$name" "$seconds" "$result" "$p" "$f"
    passed=$((passed + p))
    failed=$((failed + f))
  done
  [ "$rc" = 0 ] || echo "the run FAILED (status $rc)"
  echo "$passed passed, $failed failed"
  exit "$rc"
}
trap stage_summary EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
