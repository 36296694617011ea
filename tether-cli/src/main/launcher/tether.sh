#!/bin/sh
# The tether launcher: this script with tether.jar appended. Java reads the jar from the end of
# this file, so the one file is both the command and the jar. JAVA (default: java on PATH) and
# TETHER_JAVA_OPTS (e.g. -Xmx1g) are honoured. A process that runs out of heap exits (status 3)
# instead of limping on with threads that died mid-request, so a supervisor can restart it;
# TETHER_JAVA_OPTS=-XX:-ExitOnOutOfMemoryError turns that off.
exec "${JAVA:-java}" -XX:+ExitOnOutOfMemoryError ${TETHER_JAVA_OPTS:-} -jar "$0" "$@"
