#!/bin/sh
# Makes the ahead-of-time cache (JDK 25+, JEP 483/514/515) the launcher uses when a Java 25 or newer runs flowform:
# one training run of "plan" on examples/quickstart with -XX:AOTCacheOutput writes the cache (classes loaded and
# linked, method profiles), and ARCHIVE.jvm records which Java made it (the launcher uses the cache only with that
# Java). Optional: without a JDK 25+, or when the training run fails, there is no cache and the launcher uses the
# class-data archive of the build's Java 17 (or nothing); the build goes on either way.
#
#   aot-cache.sh JAR ARCHIVE QUICKSTART_DIR STATE_DIR
#
# The JDK is the first of $FLOWFORM_AOT_JAVA_HOME, $JAVA_HOME, the JDK of the `java` on PATH, then any JDK under
# /usr/lib/jvm, /usr/java, /opt/java, /opt, /Library/Java/JavaVirtualMachines/*/Contents/Home and
# ~/.sdkman/candidates/java, whose Java is 25 or newer.
set -eu

[ $# -eq 4 ] || { echo "usage: $0 JAR ARCHIVE QUICKSTART_DIR STATE_DIR" >&2; exit 2; }
jar=$1 archive=$2 quickstart=$3 state=$4
rm -f "$archive" "$archive.jvm"

. "$(dirname "$0")/find-jdk.sh"
if ! find_jdk 25 FLOWFORM_AOT_JAVA_HOME; then
  echo "aot-cache: no JDK 25 or newer found (looked at:${tried:- nothing}), so no AOT cache" >&2
  exit 0
fi
java_home=$jdk_home

rm -rf "$state"
# the launcher's own JVM options, so the cache fits the JVM it is used with
if "$java_home/bin/java" -XX:TieredStopAtLevel=1 "-XX:AOTCacheOutput=$archive" -Xlog:aot=off -Xlog:cds=off \
    -jar "$jar" plan --dir "$quickstart" --state-dir "$state" --no-color >/dev/null 2>&1 && [ -f "$archive" ]; then
  grep -E '^(IMPLEMENTOR|JAVA_RUNTIME_VERSION)=' "$java_home/release" > "$archive.jvm"
  echo "AOT cache made with $java_home: $archive" >&2
else
  rm -f "$archive"
  echo "aot-cache: the training run with $java_home failed, so no AOT cache" >&2
fi
