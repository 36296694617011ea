#!/usr/bin/env bash
# Checks the built launcher (tether-cli/target/tether) as a user meets it: it uses the class-data
# archive the build left beside it, and a launcher that cannot use it (moved away from its archive,
# or run by another JDK) prints nothing extra and gives the same answer. Run after `package`.
set -euo pipefail
cd "$(dirname "$0")/../../.."
tether=target/tether
[ -x "$tether" ] || { echo "no $tether: run package first" >&2; exit 1; }
[ -r "$tether.jsa" ] || { echo "FAIL: the build left no class-data archive ($tether.jsa); see target/tether-cds-training.log" >&2; exit 1; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
frame='{"v":1,"type":"user.message","session":{"channel":"cli","id":"s"},"msg_id":"m","payload":{"text":"hi"}}'
printf '%s' "$frame" > "$work/f.json"

archived=$(TETHER_JAVA_OPTS=-Xlog:class+load "$tether" validate "$work/f.json" | grep -c 'shared objects file (top)' || true)
[ "$archived" -gt 100 ] || { echo "FAIL: validate loaded $archived classes from tether.jsa (expected > 100)" >&2; exit 1; }

expected="valid: user.message frame"
cp "$tether" "$work/tether"; cp "$tether.jsa" "$work/tether.jsa"  # moved: the archive no longer matches
for run in "$tether" "$work/tether"; do
  out=$("$run" validate "$work/f.json" 2>"$work/err")
  [ "$out" = "$expected" ] || { echo "FAIL: $run printed '$out'" >&2; exit 1; }
  [ ! -s "$work/err" ] || { echo "FAIL: $run wrote to stderr: $(cat "$work/err")" >&2; exit 1; }
done
jdk25=$(ls -d /usr/lib/jvm/temurin-25-jdk-* 2>/dev/null | head -n 1 || true)
if [ -n "$jdk25" ]; then
  out=$(JAVA="$jdk25/bin/java" "$tether" validate "$work/f.json" 2>"$work/err")
  [ "$out" = "$expected" ] && [ ! -s "$work/err" ] || { echo "FAIL: on JDK 25: '$out' $(cat "$work/err")" >&2; exit 1; }
fi
echo "launcher: $archived classes from tether.jsa; a moved launcher and another JDK run without it, silently"
