package dev.tether.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.json.TetherJson;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * This module's Jackson mapper, for the SDK's JSON-RPC traffic and our own tool definitions and
 * results, on the tether modules' one configuration ({@code TetherJson}).
 *
 * <p>Jackson refuses strings over 20 million characters by default, but a legal image may be
 * 14 million base64 characters and a whole frame 28 MiB. Worse, the SDK's stdio transport stops
 * reading when a line fails to parse, which would end the server. The one configuration has no
 * string cap, so everything a caller could legitimately send parses, and a too-large image comes
 * back as a clear tool error (the frame limit) instead of a dead server. The stdio client is the
 * process that started this server, so the size of its lines is its own business; the stdio runner
 * bounds them (see {@link TetherMcpServer#maxLineChars(int)}).
 *
 * <p>The SDK falls back to mappers of its own, each a default-configured {@code ObjectMapper} with
 * that 20-million-character cap, wherever a builder is not given one: the server's JSON mapper and
 * its JSON schema validator (which reads tool arguments and structured results). Both are set from
 * here, so no default mapper ever reads a message. Thread-safe.
 */
final class McpJson {
  static final ObjectMapper MAPPER = new ObjectMapper(TetherJson.newFactory());

  static final McpJsonMapper SDK_MAPPER = new JacksonMcpJsonMapper(MAPPER);

  /**
   * The validator the SDK is given. The servers check tool arguments themselves
   * ({@code validateToolInputs(false)}) and their tools declare no output schema, so the SDK asks
   * it one thing: at start, whether each tool's input schema is a valid JSON Schema. Those schemas
   * are constants of this library, checked against the SDK's own validator by
   * {@code ToolSchemasTest}, so they are answered valid here without loading the schema library (a
   * few hundred classes, a tenth of what {@code tether mcp} loads before its first answer). Any
   * other question goes to the SDK's {@link DefaultJsonSchemaValidator} over {@link #MAPPER},
   * made on first use.
   */
  static final JsonSchemaValidator SCHEMA_VALIDATOR = new JsonSchemaValidator() {
    @Override
    public ValidationResponse validate(Map<String, Object> schema, Object content) {
      return Validator.INSTANCE.validate(schema, content);
    }

    @Override
    public ValidationResponse validateSchema(Map<String, Object> schema) {
      return ValidationResponse.asValid(null);
    }
  };

  /** Holds the SDK's validator; the JVM makes it when {@link #SCHEMA_VALIDATOR} first validates content. */
  private static final class Validator {
    static final JsonSchemaValidator INSTANCE = new DefaultJsonSchemaValidator(MAPPER);
  }

  private McpJson() {}

  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
    }
  }

  /** A JSON object from a classpath resource next to this class. */
  /** A JSON object read from {@code json} (text this server wrote). */
  static Map<String, Object> readObject(String json) {
    try {
      return MAPPER.readValue(json, new TypeReference<Map<String, Object>>() {});
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

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
