/**
 * Human rendering of plans, diagnostics and progress: pure functions from data to text.
 *
 * <p>The renderers write to an {@link java.lang.Appendable}/{@link java.lang.StringBuilder} given by
 * the caller; only the CLI decides where the text goes. Colour is applied through a {@link
 * dev.flowform.render.Style}, so tests compare plain text.
 */
package dev.flowform.render;
