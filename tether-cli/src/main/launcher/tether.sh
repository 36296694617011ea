#!/bin/sh
# The tether launcher: this script with tether.jar appended. Java reads the jar from the end of
# this file, so the one file is both the command and the jar. JAVA (default: java on PATH) and
# TETHER_JAVA_OPTS (e.g. -Xmx1g) are honoured.
exec "${JAVA:-java}" ${TETHER_JAVA_OPTS:-} -jar "$0" "$@"
