/**
 * Brownfield adoption ({@code flowform import}): the live KafkaConnects and KafkaConnectors of a namespace turned
 * into {@code manage = "adopt"} configuration text. Pure: live model in, formatted text out.
 */
package dev.flowform.config.imports;
