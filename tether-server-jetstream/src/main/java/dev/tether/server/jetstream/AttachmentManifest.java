package dev.tether.server.jetstream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.server.SharedAttachments;
import dev.tether.store.jetstream.StoreUnavailableException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One session's attachments as the attachment KV bucket holds them (the value of
 * {@link AttachmentKeys#manifest}): {@code {"channel","session","attachments":[{"name","mime_type",
 * "size","added_at","object","nuid","digest"}, ...]}} in the order stored, with the object each
 * attachment's bytes are in. The channel and session are kept to tell a hash collision from the
 * session (never seen: a 128-bit hash). Immutable.
 */
record AttachmentManifest(String channel, String session, List<Entry> entries) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One attachment and where its bytes are: {@code object} in the bucket, chunks under {@code nuid}. */
  record Entry(SharedAttachments.Stored stored, String object, String nuid, String digest) {}

  AttachmentManifest {
    entries = List.copyOf(entries);
  }

  static AttachmentManifest empty(SharedAttachments.Place place) {
    return new AttachmentManifest(place.session().channel(), place.session().id(), List.of());
  }

  /** Whether this manifest is {@code place}'s session's. */
  boolean isOf(SharedAttachments.Place place) {
    return channel.equals(place.session().channel()) && session.equals(place.session().id());
  }

  Optional<Entry> find(String name) {
    return entries.stream().filter(e -> e.stored().name().equals(name)).findFirst();
  }

  /** Whether {@code name} is taken, ignoring case, as the single-host catalog counts it. */
  boolean taken(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return entries.stream().anyMatch(e -> e.stored().name().toLowerCase(Locale.ROOT).equals(lower));
  }

  AttachmentManifest with(Entry added) {
    List<Entry> next = new ArrayList<>(entries);
    next.add(added);
    return new AttachmentManifest(channel, session, next);
  }

  AttachmentManifest without(Entry gone) {
    List<Entry> next = new ArrayList<>(entries);
    next.remove(gone);
    return new AttachmentManifest(channel, session, next);
  }

  byte[] toJson() {
    ObjectNode n = JSON.createObjectNode();
    n.put("channel", channel).put("session", session);
    ArrayNode items = n.putArray("attachments");
    for (Entry e : entries) {
      SharedAttachments.Stored s = e.stored();
      items.addObject().put("name", s.name()).put("mime_type", s.mimeType()).put("size", s.size())
          .put("added_at", s.addedAt().toString()).put("object", e.object()).put("nuid", e.nuid()).put("digest", e.digest());
    }
    try {
      return JSON.writeValueAsBytes(n);
    } catch (IOException e) {
      throw new IllegalStateException("a tree always serialises", e);
    }
  }

  /** The manifest in {@code value}; a value that is not one fails as the store being unusable. */
  static AttachmentManifest parse(String key, byte[] value) {
    try {
      JsonNode n = JSON.readTree(value);
      List<Entry> entries = new ArrayList<>();
      for (JsonNode a : n.path("attachments")) {
        entries.add(new Entry(new SharedAttachments.Stored(text(a, "name"), text(a, "mime_type"), a.path("size").asLong(-1),
            Instant.parse(text(a, "added_at"))), text(a, "object"), text(a, "nuid"), text(a, "digest")));
      }
      return new AttachmentManifest(text(n, "channel"), text(n, "session"), entries);
    } catch (IOException | RuntimeException e) {
      throw new StoreUnavailableException("the attachment manifest " + key + " on NATS JetStream is damaged: " + e.getMessage(), e);
    }
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException("no text field " + field);
    }
    return v.asText();
  }
}
