package dev.tether.server.internal;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.ErrorCode;
import java.io.IOException;

/**
 * Instance tokens over HTTP, for holders of the host token (or the Unix socket) only:
 * {@code POST /v1/tokens} with {@code {"instance":"vm1"}} mints one and answers it once
 * ({@code {id, instance, token, created_at}}, 201); {@code GET /v1/tokens} lists them without
 * their secrets; {@code DELETE /v1/tokens/{id}} revokes one and ends the waits and streams it opened.
 * Stateless; thread-safe as the token store, the registry and {@link Grants} are.
 */
final class TokenRoutes {
  private final InstanceTokens tokens;
  private final InstanceRegistry registry;
  private final Grants grants;

  TokenRoutes(InstanceTokens tokens, InstanceRegistry registry, Grants grants) {
    this.tokens = tokens;
    this.registry = registry;
    this.grants = grants;
  }

  Reply mint(byte[] body) throws IOException {
    JsonNode n;
    try {
      n = Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(body);
    } catch (IOException e) {
      n = null;
    }
    JsonNode instance = n == null ? null : n.get("instance");
    if (instance == null || !instance.isTextual()) {
      throw new IllegalArgumentException("the body must be {\"instance\":\"ID\"}");
    }
    String id = InstanceRegistry.requireId(instance.asText());
    if (registry.find(id).isEmpty()) {
      throw InstanceRegistry.notFound(id);
    }
    InstanceTokens.Minted minted = tokens.mint(id);
    ObjectNode out = describe(minted.grant());
    out.put("token", minted.token());
    return Reply.json(201, out);
  }

  Reply list() {
    ArrayNode a = Json.MAPPER.createArrayNode();
    tokens.list().forEach(g -> a.add(describe(g)));
    return Reply.json(200, a);
  }

  /** Revokes a token and ends what it let in: its streams close, its long-polls answer 401 (see {@link Grants}). */
  Reply revoke(String id) throws IOException {
    boolean revoked = tokens.revoke(id);
    grants.revoked(id); // also when the token was gone already: nothing it let in outlives it
    if (!revoked) {
      return Reply.json(404, ErrorBody.of(ErrorCode.NOT_FOUND, "no token with id '" + (id.length() > 40 ? id.substring(0, 40) + "..." : id) + "'"));
    }
    ObjectNode out = Json.MAPPER.createObjectNode();
    out.put("id", id);
    out.put("revoked", true);
    return Reply.json(200, out);
  }

  private static ObjectNode describe(InstanceTokens.Grant g) {
    ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("id", g.id());
    n.put("instance", g.instance());
    n.put("created_at", g.createdAt().toString());
    return n;
  }
}
