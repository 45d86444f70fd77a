/**
 * The port between the embedded cluster's simulated Strimzi operator and Kafka Connect: {@link
 * dev.flowform.connect.ConnectRuntime} and the values it exchanges, shaped after the Connect REST calls Strimzi's
 * {@code AbstractConnectOperator} makes. Implemented in memory by {@code sim.connect.SimulatedConnectRuntime} and on
 * real Apache Kafka by {@code dev.flowform.kafka} ({@link dev.flowform.connect.RealKafka}, loaded on demand by
 * {@link dev.flowform.connect.KafkaRuntimeLoader}); neither implementation depends on the other (docs/real-kafka.md).
 */
package dev.flowform.connect;
