package dev.tether.server.internal;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import dev.tether.store.TetherStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * The instance registry over HTTP, in the reference daemon's shapes: {@code GET /v1/instances}
 * (a JSON array), {@code GET|PUT|DELETE /v1/instances/{id}} and
 * {@code GET|POST /v1/instances/{id}/tether/watermark?channel=C} ({@code {"seq":N}}).
 *
 * <p>An instance object is {@code {id, workspace, state:"running", enabled:true, created_at,
 * next_seq, oldest_seq, frames, bytes, waiters}}: the first five with the names and JSON types
 * the reference's Go client decodes, the rest ours. Stateless; thread-safe as the registry and
 * the store are.
 */
final class InstanceRoutes {
  private final InstanceRegistry registry;
  private final TetherStore store;
  private final ToIntFunction<String> waiters;
  private final InstanceTokens tokens;
  private final Grants grants;

  InstanceRoutes(InstanceRegistry registry, TetherStore store, ToIntFunction<String> waiters, InstanceTokens tokens,
      Grants grants) {
    this.registry = registry;
    this.store = store;
    this.waiters = waiters;
    this.tokens = tokens;
    this.grants = grants;
  }

  Reply list() {
    ArrayNode a = Json.MAPPER.createArrayNode();
    for (InstanceRegistry.Entry e : registry.list()) {
      a.add(describe(e, true));
    }
    return Reply.json(200, a);
  }

  /**
   * One instance; {@code hostPaths} false (an instance token asks) leaves out its
   * {@code workspace}, an absolute path on the host that a guest has no use for.
   */
  Reply get(String id, boolean hostPaths) {
    return Reply.json(200, describe(registry.require(id), hostPaths));
  }

  /** Registers; 201 when created, 200 when it existed with the same workspace, 409 when not. */
  Reply put(String id, byte[] body) throws IOException {
    InstanceRegistry.requireId(id);
    Path workspace = null;
    if (body.length > 0 && !new String(body, StandardCharsets.UTF_8).isBlank()) {
      JsonNode n;
      try {
        n = readWhole(body);
      } catch (IOException e) {
        throw new IllegalArgumentException("the body must be empty or {\"workspace\":\"/absolute/dir\"}");
      }
      if (n == null || !n.isObject()) {
        throw new IllegalArgumentException("the body must be empty or {\"workspace\":\"/absolute/dir\"}");
      }
      JsonNode ws = n.get("workspace");
      if (ws != null && !ws.isNull()) {
        if (!ws.isTextual() || ws.asText().isEmpty()) {
          throw new IllegalArgumentException("workspace must be an absolute directory path");
        }
        workspace = Path.of(ws.asText());
      }
    }
    InstanceRegistry.Put put;
    try {
      put = registry.put(id, workspace);
    } catch (IllegalStateException e) {
      return Reply.json(409, ErrorBody.of(ErrorCode.CONFLICT, e.getMessage()));
    }
    return Reply.json(put.created() ? 201 : 200, describe(put.entry(), true));
  }

  /**
   * Deletes: its tokens are revoked, its long-polls answered 404 INSTANCE_NOT_FOUND and its
   * streams ended ({@link Grants}), its frames and watermarks go; a re-created id starts with none
   * of them.
   */
  Reply delete(String id) throws IOException {
    registry.require(id);
    registry.remove(id);
    tokens.revokeAll(id);
    grants.deleted(id);
    store.remove(id);
    ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("id", id);
    n.put("deleted", true);
    return Reply.json(200, n);
  }

  Reply watermark(String id, String channel) {
    registry.require(id);
    ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("seq", registry.watermark(id, requireChannel(channel)));
    return Reply.json(200, n);
  }

  Reply setWatermark(String id, String channel, byte[] body) throws IOException {
    registry.require(id);
    String ch = requireChannel(channel);
    JsonNode n;
    try {
      n = readWhole(body);
    } catch (IOException e) {
      n = null;
    }
    JsonNode seq = n == null ? null : n.get("seq");
    if (seq == null || !seq.canConvertToLong() || !seq.isIntegralNumber() || seq.asLong() < 0) {
      throw new IllegalArgumentException("the body must be {\"seq\":N} with N a non-negative integer");
    }
    registry.setWatermark(id, ch, seq.asLong());
    ObjectNode out = Json.MAPPER.createObjectNode();
    out.put("seq", seq.asLong());
    return Reply.json(200, out);
  }

  private static String requireChannel(String channel) {
    if (channel == null || channel.isEmpty()) {
      throw new IllegalArgumentException("channel is required: ?channel=NAME");
    }
    return InstanceRegistry.requireChannel(channel);
  }

  /** A small JSON body, whole: a second value or anything after the first is refused, not ignored. */
  private static JsonNode readWhole(byte[] body) throws IOException {
    return STRICT.readTree(body);
  }

  private static final ObjectReader STRICT =
      Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private ObjectNode describe(InstanceRegistry.Entry e, boolean hostPaths) {
    ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("id", e.id());
    if (hostPaths) {
      n.put("workspace", e.workspace().toString());
    }
    n.put("state", "running");
    n.put("enabled", true);
    n.put("created_at", e.createdAt().truncatedTo(ChronoUnit.SECONDS).toString());
    long last = store.lastSeq(e.id());
    n.put("next_seq", last + 1);
    QueryResult first = store.query(e.id(), FrameQuery.builder().limit(1).build());
    List<Frame> frames = first.frames();
    n.put("oldest_seq", frames.isEmpty() ? 0 : frames.get(0).seq());
    store.usage(e.id()).ifPresent(u -> {
      n.put("frames", u.frames());
      n.put("bytes", u.bytes());
    });
    n.put("waiters", waiters.applyAsInt(e.id()));
    return n;
  }
}
