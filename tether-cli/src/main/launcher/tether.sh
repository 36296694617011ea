#!/bin/sh
# The tether launcher: this script with tether.jar appended. Java reads the jar from the end of
# this file, so the one file is both the command and the jar. JAVA (default: java on PATH) and
# TETHER_JAVA_OPTS (e.g. -Xmx1g) are honoured. A process that runs out of heap exits (status 3)
# instead of limping on with threads that died mid-request, so a supervisor can restart it;
# TETHER_JAVA_OPTS=-XX:-ExitOnOutOfMemoryError turns that off.
#
# Start-up: the build leaves static class-data archives beside this file, made by the build's JDK
# from the classes the spawned commands load: tether.oneshot.jsa for validate and convert, tether.jsa
# for the rest. A JVM that cannot use its archive (another JDK, a moved or rebuilt launcher) ignores
# it without a word and starts without class sharing. The one-shot commands run on the client
# compiler and the serial collector: they end before the optimising compiler or G1's threads would
# pay for themselves.
opts=-XX:+ExitOnOutOfMemoryError
archive="$0.jsa"
case "${1:-}" in
  validate|convert) opts="$opts -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"; archive="$0.oneshot.jsa" ;;
esac
if [ -r "$archive" ]; then
  exec "${JAVA:-java}" -XX:SharedArchiveFile="$archive" -Xlog:cds=off -Xlog:cds+dynamic=off \
    $opts ${TETHER_JAVA_OPTS:-} -jar "$0" "$@"
fi
exec "${JAVA:-java}" $opts ${TETHER_JAVA_OPTS:-} -jar "$0" "$@"
