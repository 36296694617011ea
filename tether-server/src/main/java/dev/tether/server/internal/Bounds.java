package dev.tether.server.internal;

import dev.tether.server.MemoryBudget;
import dev.tether.server.RateLimit;
import java.time.Duration;
import java.util.Objects;

/**
 * What clients may hold of the daemon at once: heap both ways, waits, connections, and how long a
 * connection may sit idle. Every value is checked here; the defaults suit a daemon that serves a
 * handful of agents and their hosts.
 *
 * @param ingressBytes request bodies being read at once (past it: 503)
 * @param egressBytes answers being written at once, poll pages and stream lines (past it: a poll
 *     gets 503, a stream waits); answers of at most 64 KiB are not counted
 * @param maxWaits long-polls and streams held at once (past it: 503)
 * @param maxWaitsPerInstance long-polls and streams held at once on one instance (past it: 503)
 * @param headerTimeout how long a connection may take to send a whole request head, however slowly
 *     it trickles, and sit idle between requests (then it is closed; see {@link HeadDeadlines})
 * @param requestIdleTimeout how long a request in progress may move no bytes while it reads its
 *     body or writes its answer (a stalled reader is cut then); longer than the longest wait
 * @param maxConnections open connections across the listeners (past it: new ones wait in the
 *     accept queue)
 * @param maxHeadConnections connections still sending their request head at once, across the
 *     listeners; one more closes the one that has been at it longest, so slow heads hold at most
 *     this many of {@code maxConnections} (at most {@code maxConnections}; keep it below)
 * @param instanceDiskBytes what the server keeps on disk for one instance, its attachments and
 *     blobs (past it: 507 {@code INSUFFICIENT_STORAGE}); 0 for no budget
 * @param instanceRate ingress requests (frames, blobs, attachments) into one instance (past it:
 *     429 {@code RATE_LIMITED} with {@code Retry-After}); {@link RateLimit#OFF} for none
 * @param tokenRate ingress requests by one instance token (or the console's), as above
 */
public record Bounds(long ingressBytes, long egressBytes, int maxWaits, int maxWaitsPerInstance, Duration headerTimeout,
    Duration requestIdleTimeout, int maxConnections, int maxHeadConnections, long instanceDiskBytes,
    RateLimit instanceRate, RateLimit tokenRate) {
  /** The longest a long-poll waits: a request idle timeout must leave room for it. */
  static final Duration LONGEST_WAIT = Duration.ofSeconds(30);
  public static final int DEFAULT_MAX_WAITS = 4096;
  public static final int DEFAULT_MAX_WAITS_PER_INSTANCE = 2048;
  public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_REQUEST_IDLE_TIMEOUT = Duration.ofSeconds(60);
  public static final int DEFAULT_MAX_CONNECTIONS = 4096;

  public Bounds {
    requirePositive("ingressBytes", ingressBytes);
    requirePositive("egressBytes", egressBytes);
    requirePositive("maxWaits", maxWaits);
    requirePositive("maxWaitsPerInstance", maxWaitsPerInstance);
    requirePositive("maxConnections", maxConnections);
    requirePositive("maxHeadConnections", maxHeadConnections);
    if (maxHeadConnections > maxConnections) {
      throw new IllegalArgumentException("maxHeadConnections must be <= maxConnections (" + maxConnections + ") but was "
          + maxHeadConnections);
    }
    if (instanceDiskBytes < 0) {
      throw new IllegalArgumentException("instanceDiskBytes must be >= 0 (0: no budget) but was " + instanceDiskBytes);
    }
    Objects.requireNonNull(headerTimeout, "headerTimeout");
    Objects.requireNonNull(instanceRate, "instanceRate");
    Objects.requireNonNull(tokenRate, "tokenRate");
    Objects.requireNonNull(requestIdleTimeout, "requestIdleTimeout");
    if (headerTimeout.toMillis() < 1) {
      throw new IllegalArgumentException("headerTimeout must be at least 1 ms but was " + headerTimeout);
    }
    if (requestIdleTimeout.compareTo(LONGEST_WAIT.plusSeconds(5)) < 0) {
      throw new IllegalArgumentException("requestIdleTimeout must be at least 35 s (a long-poll waits up to 30 s) but was "
          + requestIdleTimeout.toSeconds() + " s");
    }
  }

  /**
   * The {@link MemoryBudget#forThisHeap() memory budget's} bodies and answers (a quarter and an
   * eighth of the heap), 4096 waits (2048 per instance), 10 s, 60 s, 4096 connections of which
   * {@link #defaultHeadConnections(int) half} in their head, 256 MiB on disk per instance, the
   * {@link RateLimit#DEFAULT_PER_INSTANCE default rates} per instance and per token.
   */
  public static Bounds defaults() {
    MemoryBudget memory = MemoryBudget.forThisHeap();
    return new Bounds(memory.ingressBytes(), memory.egressBytes(), DEFAULT_MAX_WAITS, DEFAULT_MAX_WAITS_PER_INSTANCE,
        DEFAULT_HEADER_TIMEOUT, DEFAULT_REQUEST_IDLE_TIMEOUT, DEFAULT_MAX_CONNECTIONS,
        defaultHeadConnections(DEFAULT_MAX_CONNECTIONS), DiskBudget.DEFAULT_BYTES, RateLimit.DEFAULT_PER_INSTANCE,
        RateLimit.DEFAULT_PER_TOKEN);
  }

  /** The default cap on connections in their head: half of {@code maxConnections}, at least 1. */
  public static int defaultHeadConnections(int maxConnections) {
    return Math.max(1, maxConnections / 2);
  }

  public Bounds withIngressBytes(long bytes) {
    return new Bounds(bytes, egressBytes, maxWaits, maxWaitsPerInstance, headerTimeout, requestIdleTimeout, maxConnections,
        maxHeadConnections, instanceDiskBytes, instanceRate, tokenRate);
  }

  public Bounds withEgressBytes(long bytes) {
    return new Bounds(ingressBytes, bytes, maxWaits, maxWaitsPerInstance, headerTimeout, requestIdleTimeout, maxConnections,
        maxHeadConnections, instanceDiskBytes, instanceRate, tokenRate);
  }

  public Bounds withWaits(int total, int perInstance) {
    return new Bounds(ingressBytes, egressBytes, total, perInstance, headerTimeout, requestIdleTimeout, maxConnections,
        maxHeadConnections, instanceDiskBytes, instanceRate, tokenRate);
  }

  public Bounds withTimeouts(Duration header, Duration requestIdle) {
    return new Bounds(ingressBytes, egressBytes, maxWaits, maxWaitsPerInstance, header, requestIdle, maxConnections,
        maxHeadConnections, instanceDiskBytes, instanceRate, tokenRate);
  }

  /** {@code connections} open at once, {@link #defaultHeadConnections(int) half} of them in their head. */
  public Bounds withMaxConnections(int connections) {
    return withMaxConnections(connections, defaultHeadConnections(connections));
  }

  /** {@code connections} open at once, {@code inHead} of them in their head. */
  public Bounds withMaxConnections(int connections, int inHead) {
    return new Bounds(ingressBytes, egressBytes, maxWaits, maxWaitsPerInstance, headerTimeout, requestIdleTimeout, connections,
        inHead, instanceDiskBytes, instanceRate, tokenRate);
  }

  public Bounds withInstanceDiskBytes(long bytes) {
    return new Bounds(ingressBytes, egressBytes, maxWaits, maxWaitsPerInstance, headerTimeout, requestIdleTimeout, maxConnections,
        maxHeadConnections, bytes, instanceRate, tokenRate);
  }

  /** With ingress rate limits per instance and per instance token ({@link RateLimit#OFF}: none). */
  public Bounds withRateLimits(RateLimit perInstance, RateLimit perToken) {
    return new Bounds(ingressBytes, egressBytes, maxWaits, maxWaitsPerInstance, headerTimeout, requestIdleTimeout, maxConnections,
        maxHeadConnections, instanceDiskBytes, perInstance, perToken);
  }

  /** One line for the start-up log. */
  public String describe() {
    return "limits: bodies read at once " + mib(ingressBytes) + ", answers written at once " + mib(egressBytes)
        + "; waits " + maxWaits + " (" + maxWaitsPerInstance + " per instance); connections " + maxConnections + " ("
        + maxHeadConnections + " in their head); header timeout " + headerTimeout.toSeconds()
        + " s (the whole head), request idle timeout " + requestIdleTimeout.toSeconds() + " s"
        + "; disk per instance " + (instanceDiskBytes == 0 ? "unlimited"
            : instanceDiskBytes % (1 << 20) == 0 ? mib(instanceDiskBytes) : instanceDiskBytes + " bytes")
        + "; ingress rate per instance " + instanceRate.describe() + ", per token " + tokenRate.describe();
  }

  private static String mib(long bytes) {
    return (bytes >> 20) + " MiB";
  }

  private static void requirePositive(String name, long value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be >= 1 but was " + value);
    }
  }
}
