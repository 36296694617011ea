package dev.tether.client.http;

import java.time.Instant;
import java.util.Objects;

/**
 * A bearer token that opens one instance of a host (its send, poll, stream, blob and watermark
 * routes) and nothing else, as the host's token API describes it.
 *
 * @param id the token's id, to revoke it by
 * @param instance the instance it opens
 * @param createdAt when it was minted
 * @param token the secret: present only in the answer to minting it, null in a listing
 */
public record InstanceToken(String id, String instance, Instant createdAt, String token) {
  public InstanceToken {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(instance, "instance");
    Objects.requireNonNull(createdAt, "createdAt");
  }

  /** Never shows the secret. */
  @Override
  public String toString() {
    return "InstanceToken[id=" + id + ", instance=" + instance + ", createdAt=" + createdAt + (token == null ? "]" : ", token=<secret>]");
  }
}
