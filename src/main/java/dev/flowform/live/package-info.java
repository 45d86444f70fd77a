/**
 * Reading the live cluster with fabric8 into the {@code model} records: one list per kind and namespace, the served
 * Strimzi version found by discovery, generic resources (no Strimzi model jar), and a content fingerprint per object
 * ({@link dev.flowform.live.LiveMapper#fingerprint}) for saved plans. Edge package.
 */
package dev.flowform.live;
