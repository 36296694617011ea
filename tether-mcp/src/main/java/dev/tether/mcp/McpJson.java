package dev.tether.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.Limits;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The one Jackson configuration of this module, for the SDK's JSON-RPC traffic and our own tool
 * definitions and results.
 *
 * <p>Jackson refuses strings over 20 million characters by default, but a legal image may be
 * 14 million base64 characters and a whole frame 28 MiB. Worse, the SDK's stdio transport stops
 * reading when a line fails to parse, which would end the server. So the string limit is raised
 * to twice the wire limit: everything a caller could legitimately send parses, and a too-large
 * image comes back as a clear tool error instead of a dead server. Thread-safe.
 */
final class McpJson {
  static final ObjectMapper MAPPER = new ObjectMapper();

  static {
    MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
        .maxStringLength(2 * Limits.MAX_FRAME_BYTES)
        .build());
  }

  static final McpJsonMapper SDK_MAPPER = new JacksonMcpJsonMapper(MAPPER);

  private McpJson() {}

  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
    }
  }

  /** A JSON object from a classpath resource next to this class. */
  static Map<String, Object> resource(String name) {
    try (InputStream in = McpJson.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return MAPPER.readValue(in, new TypeReference<Map<String, Object>>() {});
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read resource " + name, e);
    }
  }
}
