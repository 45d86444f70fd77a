#!/bin/sh
# Generates the Strimzi CustomResourceDefinitions the embedded cluster serves, with Strimzi's own generator over
# Strimzi's published API classes (both from Maven Central), exactly as Strimzi's api/pom.xml generates the files of
# its install folder, but as compact JSON (without --yaml: the same documents, faster to load). Provenance and licence:
# docs/strimzi-crds.md.
#
#   generate.sh GENERATOR_JAR API_V1_JAR API_V1BETA2_JAR OUT_DIR
#
# GENERATOR_JAR    io.strimzi:crd-generator:1.2.0 (a shaded jar: the generator and its fabric8 7.x, Jackson 2)
# API_V1_JAR       io.strimzi:api:1.2.0  -> OUT_DIR/v1/       (v1 only, as Strimzi 1.2.0 installs them)
# API_V1BETA2_JAR  io.strimzi:api:0.51.0 -> OUT_DIR/v1beta2/  (v1beta2 stored, v1 served, as Strimzi 0.51.0)
#
# The generator is Java 21 bytecode, so it runs in a JVM of its own from a JDK 21 or newer, never on flowform's
# class path (its fabric8 7.x would meet flowform's 8.0.0). That JDK is the first of: $STRIMZI_CRD_JAVA_HOME,
# $JAVA_HOME, the JDK of the `java` on PATH, then any JDK under /usr/lib/jvm, /usr/java, /opt/java, /opt,
# /Library/Java/JavaVirtualMachines/*/Contents/Home and ~/.sdkman/candidates/java, whose Java is 21 or newer.
# Nothing is done when OUT_DIR's stamp is newer than this script and the three jars.
set -eu

if [ $# -ne 4 ]; then
  echo "usage: $0 GENERATOR_JAR API_V1_JAR API_V1BETA2_JAR OUT_DIR" >&2
  exit 2
fi
generator=$1 api_v1=$2 api_v1beta2=$3 out=$4
for jar in "$generator" "$api_v1" "$api_v1beta2"; do
  if [ ! -f "$jar" ]; then
    echo "strimzi-crds: $jar is missing (the build copies it from Maven Central before this step)" >&2
    exit 1
  fi
done

stamp=$out/.generated
if [ -f "$stamp" ] && [ "$stamp" -nt "$0" ] && [ "$stamp" -nt "$generator" ] && [ "$stamp" -nt "$api_v1" ] \
    && [ "$stamp" -nt "$api_v1beta2" ]; then
  exit 0
fi

. "$(dirname "$0")/../build/find-jdk.sh"
java_home=
if find_jdk 21 STRIMZI_CRD_JAVA_HOME; then
  java_home=$jdk_home
fi
if [ -z "$java_home" ]; then
  echo "strimzi-crds: Strimzi's CRD generator (io.strimzi:crd-generator:1.2.0) needs a JDK 21 or newer, and none was" >&2
  echo "found. Looked at \$STRIMZI_CRD_JAVA_HOME, \$JAVA_HOME, the java on PATH and the JDKs under /usr/lib/jvm," >&2
  echo "/usr/java, /opt, /Library/Java/JavaVirtualMachines and ~/.sdkman; found:${tried:- no JDK at all}." >&2
  echo "Install one (e.g. Temurin 21 or 25) or point STRIMZI_CRD_JAVA_HOME at it; flowform itself still builds and runs on 17." >&2
  exit 1
fi

rm -rf "$out"
mkdir -p "$out/v1" "$out/v1beta2"
model=io.strimzi.api.kafka.model

# $1 api jar, $2 --api-versions, $3 --storage-version, $4 output folder
generate() {
  "$java_home/bin/java" -Xshare:auto -XX:TieredStopAtLevel=1 -cp "$1:$generator" io.strimzi.crdgenerator.CrdGenerator \
    --label app:strimzi --label strimzi.io/crd-install:true --target-kube 1.16+ --crd-api-version v1 \
    --api-versions "$2" --storage-version "$3" \
    "$model.connect.KafkaConnect=$4/041-Crd-kafkaconnect.json" \
    "$model.podset.StrimziPodSet=$4/042-Crd-strimzipodset.json" \
    "$model.connector.KafkaConnector=$4/047-Crd-kafkaconnector.json" \
    "$model.mirrormaker2.KafkaMirrorMaker2=$4/048-Crd-kafkamirrormaker2.json" \
    "$model.user.KafkaUser=$4/044-Crd-kafkauser.json"
}

generate "$api_v1" v1 v1 "$out/v1" &
first=$!
generate "$api_v1beta2" v1beta2,v1 v1beta2 "$out/v1beta2"
wait "$first"
echo "Strimzi CRDs generated with $java_home: $out" >&2
touch "$stamp"
