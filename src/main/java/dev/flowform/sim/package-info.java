/**
 * The embedded Kubernetes cluster that tests, benchmarks and the demo environment run against.
 *
 * <p>{@link dev.flowform.sim.EmbeddedCluster} starts the fabric8 mock API server in CRUD mode on
 * 127.0.0.1, registers the Strimzi CRDs for exactly one API version, seeds or reloads objects and
 * starts a {@link dev.flowform.sim.StrimziSimulator}, which plays the Strimzi cluster operator for
 * KafkaConnect / KafkaConnector (rolling workers one at a time) and the kubelet, with Kafka Connect
 * behind the {@link dev.flowform.connect.ConnectRuntime} port (by default the in-memory
 * {@link dev.flowform.sim.connect.SimulatedConnectRuntime}, which validates connectors the way Kafka
 * Connect does). {@link dev.flowform.sim.SimFaults} injects the failures reliability tests need.
 *
 * <p>This is an edge package: it owns sockets, threads, files and the wall clock. The mock API server has
 * known gaps (no server-side apply, instant pod deletion, ...); everything here is written
 * against what both the mock and a real API server do.
 */
package dev.flowform.sim;
