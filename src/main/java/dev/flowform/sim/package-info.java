/**
 * The embedded Kubernetes cluster tests, benchmarks and the demo run against: {@link dev.flowform.sim.EmbeddedCluster}
 * (fabric8's mock API server with Strimzi's CRDs) and {@link dev.flowform.sim.StrimziSimulator} (the Strimzi operator
 * and kubelet), with Kafka Connect behind the {@link dev.flowform.connect.ConnectRuntime} port. Edge package: sockets,
 * threads, files, the wall clock (docs/architecture.md).
 */
package dev.flowform.sim;
