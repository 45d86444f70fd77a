#!/bin/sh
# Assembles the file tree of flowform's container image, which Jib then packs on top of an empty ("scratch") base:
# no container registry is needed (see docs/packaging.md). Run by the package phase on Linux:
#
#   rootfs.sh JAVA_HOME DIST OUT QUICKSTART TRAINING_JAR
#
#   JAVA_HOME   the build's JDK 17+, with jmods/ (jlink makes the image's Java runtime from it unless a JDK 25+ is found)
#   DIST        the distribution folder (target/flowform: bin/flowform, lib/flowform.jar, completion/)
#   OUT         the tree to create (emptied first)
#   QUICKSTART  examples/quickstart: served by "flowform cluster serve" and planned against, to train the AOT cache
#   TRAINING_JAR  the training runs' driver (target/aot-training.jar, src/build/java)
#
# The runtime is made from a JDK 25 or newer when one is installed (found as src/build/find-jdk.sh finds it, or
# $FLOWFORM_AOT_JAVA_HOME) and its jlink works: with the AOT cache trained here at the image's own layout, a remote
# plan starts about twice as fast as on Java 17 with class-data sharing (docs/packaging.md). The bytecode stays 17.
#
# The tree: /opt/java (a jlink'd runtime of the modules flowform uses), the shared libraries that runtime and
# /bin/sh need, copied from this machine at the paths ldd finds them, /bin/sh (this machine's sh, for the
# launcher), /opt/flowform (the distribution without lib/kafka), /etc/passwd and /etc/group naming the
# unprivileged user 65532 "flowform", its home folder and /tmp.
set -eu

[ $# -eq 5 ] || { echo "usage: rootfs.sh JAVA_HOME DIST OUT QUICKSTART TRAINING_JAR" >&2; exit 2; }
jdk=$1 dist=$2 out=$3 quickstart=$4 training=$5

# Uncompressed modules (no --compress): the layer is gzipped anyway, and classes load without inflating them.
# The modules of flowform.jar (jdeps --multi-release 17 --ignore-missing-deps --print-module-deps), plus
# jdk.crypto.ec (TLS with EC keys, which many Kubernetes API servers use) and jdk.zipfs
MODULES=java.base,java.compiler,java.desktop,java.instrument,java.management,java.naming,java.net.http,java.scripting,java.security.jgss,java.sql,jdk.jfr,jdk.net,jdk.unsupported,jdk.crypto.ec,jdk.zipfs

[ -x "$jdk/bin/jlink" ] || { echo "rootfs.sh: $jdk/bin/jlink not found: the image needs a JDK (not a JRE) to build" >&2; exit 1; }
[ -d "$jdk/jmods" ] || { echo "rootfs.sh: $jdk/jmods not found: jlink needs the JDK's jmods (Debian: openjdk-17-jdk-headless)" >&2; exit 1; }
command -v ldd >/dev/null || { echo "rootfs.sh: ldd not found (Debian: libc-bin)" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd -P)
mkdir -p "$out/opt" "$out/bin" "$out/etc" "$out/tmp" "$out/home/flowform"

# a JDK 25+ links its own runtime (JEP 493) or has jmods; when that fails the build's JDK makes it, as before
. "$(dirname "$0")/../build/find-jdk.sh"
runtime_jdk=
if find_jdk 25 FLOWFORM_AOT_JAVA_HOME && "$jdk_home/bin/jlink" --add-modules "$MODULES" --strip-debug \
    --no-header-files --no-man-pages --output "$out/opt/java.tmp" >/dev/null 2>&1; then
  runtime_jdk=$jdk_home
else
  rm -rf "$out/opt/java.tmp"
  runtime_jdk=$jdk
  "$jdk/bin/jlink" --module-path "$jdk/jmods" --add-modules "$MODULES" --strip-debug --no-header-files \
    --no-man-pages --output "$out/opt/java.tmp"
fi
echo "rootfs.sh: the image's Java runtime is linked from $runtime_jdk" >&2
# Jib stores regular files only: follow every symbolic link jlink left (Debian points cacerts and tzdb.dat at /etc)
cp -RL "$out/opt/java.tmp" "$out/opt/java"
rm -rf "$out/opt/java.tmp"
# flowform draws nothing: drop the libraries that only a display, sound or fonts need (they link X11, ALSA, freetype)
for lib in libawt_xawt.so libsplashscreen.so libjsound.so libfontmanager.so liblcms.so libjavajpeg.so libmlib_image.so; do
  rm -f "$out/opt/java/lib/$lib"
done

cp -L /bin/sh "$out/bin/sh"

# every shared library the runtime and sh load, from this machine, at the same path (and the dynamic loader)
find "$out/opt/java" "$out/bin" -type f \( -name '*.so' -o -path '*/bin/*' \) | while IFS= read -r elf; do
  ldd "$elf" 2>/dev/null || true
done | while read -r first arrow path rest; do
  case $arrow in
    "=>") [ "${path#/}" != "$path" ] && printf '%s\n' "$path" ;;
    *) [ "${first#/}" != "$first" ] && printf '%s\n' "$first" ;;
  esac
done | sort -u | while IFS= read -r lib; do
  case $lib in "$out"/*) continue ;; esac
  mkdir -p "$out${lib%/*}"
  cp -L "$lib" "$out$lib"
done
[ -n "$(ls "$out/lib"* 2>/dev/null)" ] || { echo "rootfs.sh: ldd found no libraries for the runtime" >&2; exit 1; }

mkdir -p "$out/opt/flowform/lib"
cp -R "$dist/bin" "$dist/completion" "$out/opt/flowform/"
cp "$dist/lib/flowform.jar" "$out/opt/flowform/lib/"
# jlink's release file leaves out the lines the launcher's archive stamps compare (IMPLEMENTOR, JAVA_RUNTIME_VERSION):
# the runtime is that JDK's, so they are copied from it
for key in IMPLEMENTOR JAVA_RUNTIME_VERSION; do
  grep -q "^$key=" "$out/opt/java/release" || grep "^$key=" "$runtime_jdk/release" >> "$out/opt/java/release" || true
done

printf 'root:x:0:0:root:/root:/bin/sh\nflowform:x:65532:65532:flowform:/home/flowform:/bin/sh\n' > "$out/etc/passwd"
printf 'root:x:0:\nflowform:x:65532:\n' > "$out/etc/group"

# Jib gives every file of the image the time 1970-01-01T00:00:01Z; the AOT cache remembers the jar's time and size,
# so the files get that time before the training run. The cache is trained with the tree's own runtime and jar: the
# JVM accepts them at /opt/java and /opt/flowform, the same layout under another prefix. The image runs against the
# cluster it is in, so the training is a remote plan only ("remote"): the cache then holds none of the embedded
# cluster's classes, which every start would load. Java 17 gets no archive (its dynamic archive would need the jar
# at the very path it was made at).
find "$out" -exec touch -h -d @1 {} +
if [ -n "$(feature_version "$out/opt/java")" ] && [ "$(feature_version "$out/opt/java")" -ge 25 ]; then
  FLOWFORM_AOT_JAVA_HOME="$out/opt/java" sh "$(dirname "$0")/../build/aot-cache.sh" remote \
    "$out/opt/flowform/lib/flowform.jar" "$training" "$out/opt/flowform/lib/flowform.aot" "$quickstart" \
    "$out.aot-training"
  rm -rf "$out.aot-training"
fi

# sanity: the image's Java runs here, with only the copied libraries (chroot needs root, so through the loader)
loader=$(ls "$out"/lib64/ld-linux-* "$out"/lib/ld-linux-* 2>/dev/null | head -n 1)
if [ -n "$loader" ]; then
  libdirs=$(find "$out/lib" "$out/lib64" "$out/usr/lib" -type d 2>/dev/null | tr '\n' ':')
  "$loader" --library-path "${libdirs}$out/opt/java/lib:$out/opt/java/lib/server" "$out/opt/java/bin/java" -version >/dev/null 2>&1 ||
    { echo "rootfs.sh: the image's Java runtime does not start with the copied libraries" >&2; exit 1; }
fi
