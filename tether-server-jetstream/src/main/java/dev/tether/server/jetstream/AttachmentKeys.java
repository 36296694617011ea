package dev.tether.server.jetstream;

import dev.tether.server.SharedAttachments;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;

/**
 * The keys of the attachment KV bucket and the names of the attachment objects. Nothing a client
 * sent reaches a key or a subject verbatim: the instance id is base64url (its characters are
 * letters, digits, {@code . _ -}, but {@code .} separates key tokens), the generation is its
 * instant in digits, the session is a SHA-256 (its channel and id may be 1,024 characters of
 * anything), and object names are random. Stateless.
 *
 * <ul>
 *   <li>{@code m.<instance>.<generation>.<session>}: the session's manifest.
 *   <li>{@code u.<instance>.<generation>}: the bytes stored for the registration (the budget's count).
 *   <li>object {@code <instance>/<generation>/<uuid>}: one attachment's bytes.
 * </ul>
 */
final class AttachmentKeys {
  private AttachmentKeys() {}

  /** The manifest key of {@code place}'s session. */
  static String manifest(SharedAttachments.Place place) {
    return "m." + registration(place.instance(), place.generation()) + "." + session(place);
  }

  /** What every manifest key of a registration matches (a KV key filter). */
  static String manifests(String instance, Instant generation) {
    return "m." + registration(instance, generation) + ".*";
  }

  /** The usage key of a registration. */
  static String usage(String instance, Instant generation) {
    return "u." + registration(instance, generation);
  }

  /** A fresh object name for one attachment of {@code place}'s registration. */
  static String object(SharedAttachments.Place place) {
    return instance(place.instance()) + "/" + generation(place.generation()) + "/" + UUID.randomUUID();
  }

  private static String registration(String instance, Instant generation) {
    return instance(instance) + "." + generation(generation);
  }

  static String instance(String id) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(id.getBytes(StandardCharsets.UTF_8));
  }

  static String generation(Instant g) {
    return "g" + g.getEpochSecond() + "_" + String.format(Locale.ROOT, "%09d", g.getNano());
  }

  private static String session(SharedAttachments.Place place) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      String channel = place.session().channel();
      // Length-prefixed, so no channel and id run together into another pair's.
      byte[] d = sha.digest((channel.length() + ":" + channel + place.session().id()).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
