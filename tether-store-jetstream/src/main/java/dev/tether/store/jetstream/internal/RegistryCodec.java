package dev.tether.store.jetstream.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON of registry entries in the KV bucket: an instance
 * {@code {"id","created_at","workspace"?,"attributes":{}}} and a watermark
 * {@code {"channel","seq","instance_rev"}}. Readers tolerate unknown fields. Stateless and thread-safe.
 */
public final class RegistryCodec {
  private static final ObjectMapper JSON = new ObjectMapper();

  private RegistryCodec() {}

  /** The parts of an instance entry (the revision comes from KV). */
  public record InstanceValue(String id, Instant createdAt, String workspace, Map<String, String> attributes) {}

  public static byte[] instance(String id, Instant createdAt, String workspace, Map<String, String> attributes) {
    ObjectNode n = JSON.createObjectNode();
    n.put("id", id);
    n.put("created_at", createdAt.toString());
    if (workspace != null) {
      n.put("workspace", workspace);
    }
    ObjectNode a = n.putObject("attributes");
    attributes.forEach(a::put);
    return write(n);
  }

  /** The instance in {@code bytes}, or null when they are not one. */
  public static InstanceValue readInstance(byte[] bytes) {
    JsonNode n = read(bytes);
    if (n == null || !n.path("id").isTextual() || n.path("id").textValue().isEmpty()) {
      return null;
    }
    Instant created;
    try {
      created = Instant.parse(n.path("created_at").asText());
    } catch (RuntimeException e) {
      created = Instant.EPOCH;
    }
    Map<String, String> attributes = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = n.path("attributes").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      attributes.put(e.getKey(), e.getValue().asText());
    }
    String ws = n.path("workspace").isTextual() ? n.path("workspace").textValue() : null;
    return new InstanceValue(n.path("id").textValue(), created, ws, attributes);
  }

  /** A watermark: the channel (keys may hold only its hash), the seq, the instance's revision. */
  public record WatermarkValue(String channel, long seq, long instanceRevision) {}

  public static byte[] watermark(String channel, long seq, long instanceRevision) {
    ObjectNode n = JSON.createObjectNode();
    n.put("channel", channel);
    n.put("seq", seq);
    n.put("instance_rev", instanceRevision);
    return write(n);
  }

  /** The watermark in {@code bytes}, or null when they are not one. */
  public static WatermarkValue readWatermark(byte[] bytes) {
    JsonNode n = read(bytes);
    if (n == null || !n.path("seq").canConvertToLong() || !n.path("channel").isTextual()) {
      return null;
    }
    return new WatermarkValue(n.path("channel").textValue(), n.path("seq").asLong(), n.path("instance_rev").asLong());
  }

  private static JsonNode read(byte[] bytes) {
    if (bytes == null || bytes.length == 0) {
      return null;
    }
    try {
      JsonNode n = JSON.readTree(bytes);
      return n != null && n.isObject() ? n : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static byte[] write(JsonNode n) {
    try {
      return JSON.writeValueAsBytes(n);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
