/**
 * Spring Boot auto-configuration for tether: the store, a {@code TetherClient}, an optional
 * embedded {@code TetherServer}, Micrometer meters and a health indicator, set by the
 * {@code tether.*} properties ({@link dev.tether.spring.boot.TetherProperties}). Every bean backs
 * off when the application defines its own. See docs/spring.md.
 */
package dev.tether.spring.boot;
