# Sourced by the build's scripts: find_jdk MIN VAR sets $jdk_home to a JDK whose Java is MIN or newer, or returns 1
# with what it looked at in $tried. The first of: $VAR, $JAVA_HOME, the JDK of the `java` on PATH, then the JDKs under
# /usr/lib/jvm, /usr/java, /opt/java, /opt, /Library/Java/JavaVirtualMachines/*/Contents/Home and
# ~/.sdkman/candidates/java.

# prints the feature version of the JDK at $1 (21 for 21.0.9, 8 for 1.8.0), nothing when $1 holds no runnable java
feature_version() {
  [ -x "$1/bin/java" ] || return 0
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \(1\.\)\{0,1\}\([0-9]*\).*/\2/p' | head -n 1
}

# $1: the name of the variable that names a preferred JDK
jdk_candidates() {
  eval "preferred=\${$1:-}"
  [ -n "$preferred" ] && echo "$preferred"
  [ -n "${JAVA_HOME:-}" ] && echo "$JAVA_HOME"
  if command -v java >/dev/null 2>&1; then
    path_java=$(command -v java)
    resolved=$(readlink -f "$path_java" 2>/dev/null || echo "$path_java")
    dirname "$(dirname "$resolved")"
  fi
  for d in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/* /Library/Java/JavaVirtualMachines/*/Contents/Home \
      "${HOME:-/nonexistent}"/.sdkman/candidates/java/*; do
    [ -d "$d" ] && echo "$d"
  done
  return 0
}

find_jdk() {
  tried=
  jdk_home=
  seen=" "
  for c in $(jdk_candidates "$2"); do
    real=$(readlink -f "$c" 2>/dev/null || echo "$c")
    case "$seen" in *" $real "*) continue ;; esac
    seen="$seen$real "
    v=$(feature_version "$c")
    [ -n "$v" ] || continue
    tried="$tried $c (Java $v)"
    if [ "$v" -ge "$1" ]; then
      jdk_home=$c
      return 0
    fi
  done
  return 1
}
