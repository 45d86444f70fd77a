/**
 * Taking and keeping what one holder at a time may have: the state lock ({@code state.StateLockTable}) and the cluster
 * leases ({@code apply.HeldLeases}) share {@link dev.flowform.locking.LockWait} (Terraform's
 * {@code LockWithContext}: retry with a doubling pause until a timeout), {@link dev.flowform.locking.Renewal} (keep
 * what was taken alive on a daemon thread, and say when that failed) and {@link dev.flowform.locking.Sleeper} (every
 * pause). Depends on no other flowform package.
 */
package dev.flowform.locking;
