#!/bin/sh
# Makes the ahead-of-time cache (JDK 25+, JEP 483/514/515) the launcher uses when a Java 25 or newer runs flowform:
# a training run with -XX:AOTCacheOutput writes the cache (classes loaded and linked, method profiles), and
# ARCHIVE.jvm records which Java made it (the launcher uses the cache only with that Java). The training
# (dev.flowform.build.AotTraining, in TRAINING_JAR) plans examples/quickstart as MODE says: "both" (against a remote
# API server and with the embedded cluster, for the distribution) or "remote" (for the container image, which runs
# against the cluster it is in). Optional: without a JDK 25+, or when the training fails, there is no cache and the
# launcher uses the class-data archive of the build's Java 17 (or nothing); the build goes on either way.
#
#   aot-cache.sh MODE JAR TRAINING_JAR ARCHIVE QUICKSTART_DIR WORK_DIR
#
# The JDK is the first of $FLOWFORM_AOT_JAVA_HOME, $JAVA_HOME, the JDK of the `java` on PATH, then any JDK under
# /usr/lib/jvm, /usr/java, /opt/java, /opt, /Library/Java/JavaVirtualMachines/*/Contents/Home and
# ~/.sdkman/candidates/java, whose Java is 25 or newer.
set -eu

[ $# -eq 6 ] || { echo "usage: $0 MODE JAR TRAINING_JAR ARCHIVE QUICKSTART_DIR WORK_DIR" >&2; exit 2; }
mode=$1 jar=$2 training=$3 archive=$4 quickstart=$5 work=$6
rm -f "$archive" "$archive.jvm"

. "$(dirname "$0")/find-jdk.sh"
if ! find_jdk 25 FLOWFORM_AOT_JAVA_HOME; then
  echo "aot-cache: no JDK 25 or newer found (looked at:${tried:- nothing}), so no AOT cache" >&2
  exit 0
fi
java_home=$jdk_home

rm -rf "$work"
mkdir -p "$work"
if "$java_home/bin/java" -cp "$jar:$training" dev.flowform.build.AotTraining "$mode" "$java_home" "$work" \
    "$quickstart" "-XX:AOTCacheOutput=$archive" -Xlog:aot=off -Xlog:cds=off >"$work/training.log" 2>&1 && [ -f "$archive" ]; then
  grep -E '^(IMPLEMENTOR|JAVA_RUNTIME_VERSION)=' "$java_home/release" > "$archive.jvm"
  echo "AOT cache made with $java_home ($mode): $archive" >&2
else
  rm -f "$archive"
  echo "aot-cache: the training with $java_home failed, so no AOT cache:" >&2
  tail -n 5 "$work"/*.log >&2 2>/dev/null || true
fi
