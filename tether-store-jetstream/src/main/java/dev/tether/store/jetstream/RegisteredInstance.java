package dev.tether.store.jetstream;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One instance in a {@link JetStreamRegistry}: what every host sharing the registry knows of it.
 *
 * @param id the instance id (non-empty; the server decides which ids it accepts)
 * @param createdAt when it was first registered, by whichever host won the create
 * @param workspace the workspace the registering host gave it, or null when it has none (a host
 *     with a local workspace directory keeps its path here; other hosts may not share that disk)
 * @param attributes anything else the server keeps about the instance, opaque to the registry (a
 *     copy, unmodifiable)
 * @param revision the KV revision of this entry; a later entry of the same id (after a delete and
 *     a new create) has a larger one
 */
public record RegisteredInstance(String id, Instant createdAt, String workspace, Map<String, String> attributes,
    long revision) {
  public RegisteredInstance {
    Objects.requireNonNull(id, "id");
    if (id.isEmpty()) {
      throw new IllegalArgumentException("id must not be empty");
    }
    Objects.requireNonNull(createdAt, "createdAt");
    attributes = Map.copyOf(Objects.requireNonNull(attributes, "attributes"));
  }
}
