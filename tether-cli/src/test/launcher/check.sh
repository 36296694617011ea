#!/usr/bin/env bash
# Checks the built launcher (tether-cli/target/tether) as a user meets it: it uses the class-data
# archives the build left beside it (picocli's Java 5 classes included, which only a static archive
# holds), and a launcher that cannot use them (moved away from its archives, or run by another JDK)
# prints nothing extra and gives the same answer. Run after `package`.
set -euo pipefail
cd "$(dirname "$0")/../../.."
tether=target/tether
[ -x "$tether" ] || { echo "no $tether: run package first" >&2; exit 1; }
for a in "$tether.jsa" "$tether.oneshot.jsa"; do
  [ -r "$a" ] || { echo "FAIL: the build left no class-data archive $a; see target/*-cds-*.log" >&2; exit 1; }
done
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
frame='{"v":1,"type":"user.message","session":{"channel":"cli","id":"s"},"msg_id":"m","payload":{"text":"hi"}}'
printf '%s' "$frame" > "$work/f.json"

archived=$(TETHER_JAVA_OPTS=-Xlog:class+load "$tether" validate "$work/f.json" | grep -c '^\[.*\]\[info\]\[class,load\] picocli\..*source: shared objects file' || true)
[ "$archived" -gt 100 ] || { echo "FAIL: validate loaded $archived picocli classes from tether.oneshot.jsa (expected > 100)" >&2; exit 1; }
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"check","version":"1"}}}'
printf '%s\n' "$init" | TETHER_JAVA_OPTS=-Xlog:class+load "$tether" mcp --host "unix:$work/none.sock" 2>/dev/null > "$work/mcp.log"
mcp=$(grep -c '^\[.*\]\[info\]\[class,load\] io\.modelcontextprotocol\..*source: shared objects file' "$work/mcp.log" || true)
[ "$mcp" -gt 50 ] || { echo "FAIL: mcp loaded $mcp MCP SDK classes from tether.jsa (expected > 50)" >&2; exit 1; }
# The host is plain HTTP (a Unix socket or loopback TCP): starting TLS would be a fifth of mcp's start.
tls=$(grep -c '^\[.*\]\[info\]\[class,load\] sun\.security\.ssl\.' "$work/mcp.log" || true)
[ "$tls" -eq 0 ] || { echo "FAIL: mcp loaded $tls classes of the JDK's TLS stack" >&2; exit 1; }

expected="valid: user.message frame"
cp "$tether" "$work/tether"; cp "$tether.jsa" "$tether.oneshot.jsa" "$work/"  # moved: the archives no longer match
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
echo "launcher: validate loaded $archived picocli classes from tether.oneshot.jsa, mcp $mcp MCP SDK classes from tether.jsa;"\
  "a moved launcher and another JDK run without them, silently"
