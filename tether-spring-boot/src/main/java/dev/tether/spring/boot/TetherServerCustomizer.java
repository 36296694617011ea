package dev.tether.spring.boot;

import dev.tether.server.TetherServer;

/**
 * Adjusts the embedded {@link TetherServer} before it starts (any builder setting the
 * {@code tether.server.*} properties do not cover) and is told once it has started. Every bean of
 * this type is applied, in {@code @Order}, after the properties.
 */
@FunctionalInterface
public interface TetherServerCustomizer {
  /** Called with the builder the properties were applied to, before {@code start()}. */
  void customize(TetherServer.Builder builder);

  /** Called once the server is listening (for example to bind gauges). Default: nothing. */
  default void started(TetherServer server) {}
}
