package dev.tether.server.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import dev.tether.api.SessionKey;
import dev.tether.server.SharedAttachments;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Whatever a client names its session (any characters, up to the routes' 1,024) and whatever the
 * instance id (its registry pattern, dots included), the attachment KV keys are valid KV keys of a
 * fixed shape that no client string reaches verbatim, two sessions never share a key, and a
 * manifest holding any names and MIME types reads back as written.
 */
class AttachmentKeysPropertyTest {
  private static final Pattern MANIFEST = Pattern.compile("m\\.[A-Za-z0-9_-]{1,172}\\.g[0-9]+_[0-9]{9}\\.[0-9a-f]{32}");
  private static final Pattern USAGE = Pattern.compile("u\\.[A-Za-z0-9_-]{1,172}\\.g[0-9]+_[0-9]{9}");
  private static final String ID_CHARS = "abcXYZ019._-";

  private static Gen<String> ids() {
    return integers().between(1, 128).zip(longs().all(), (n, seed) -> {
      StringBuilder b = new StringBuilder("a");
      long x = seed;
      for (int i = 1; i < n; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
        b.append(ID_CHARS.charAt((int) Math.floorMod(x >>> 33, (long) ID_CHARS.length())));
      }
      return b.toString();
    });
  }

  private static Gen<Instant> generations() {
    return longs().between(0, 4_000_000_000L).zip(integers().between(0, 999_999_999), Instant::ofEpochSecond);
  }

  private static Gen<String> anything() {
    return strings().betweenCodePoints(0, 0xD7FF).ofLengthBetween(1, 1024); // what a UTF-8 query decodes to, NUL included
  }

  @Test
  void keys_haveTheirShape_forAnyIdGenerationAndSession() {
    qt().withExamples(300).forAll(ids(), generations(), anything(), anything()).checkAssert((id, gen, channel, session) -> {
      SharedAttachments.Place place = new SharedAttachments.Place(id, gen, new SessionKey(channel, session));
      String key = AttachmentKeys.manifest(place);
      assertTrue(MANIFEST.matcher(key).matches(), key);
      assertTrue(key.startsWith(AttachmentKeys.manifests(id, gen).replace("*", "")), key);
      assertTrue(USAGE.matcher(AttachmentKeys.usage(id, gen)).matches());
      assertTrue(AttachmentKeys.object(place).startsWith(AttachmentKeys.instance(id) + "/" + AttachmentKeys.generation(gen) + "/"));
    });
  }

  @Test
  void twoSessions_neverShareAKey_evenWhenTheirPartsRunTogether() {
    qt().withExamples(300).forAll(anything(), anything(), anything(), anything()).checkAssert((c1, s1, c2, s2) -> {
      SharedAttachments.Place one = new SharedAttachments.Place("vm", Instant.EPOCH, new SessionKey(c1, s1));
      SharedAttachments.Place two = new SharedAttachments.Place("vm", Instant.EPOCH, new SessionKey(c2, s2));
      if (!(c1.equals(c2) && s1.equals(s2))) {
        assertNotEquals(AttachmentKeys.manifest(one), AttachmentKeys.manifest(two));
      }
    });
    SharedAttachments.Place a = new SharedAttachments.Place("vm", Instant.EPOCH, new SessionKey("a\u0000b", "c"));
    SharedAttachments.Place b = new SharedAttachments.Place("vm", Instant.EPOCH, new SessionKey("a", "b\u0000c"));
    assertNotEquals(AttachmentKeys.manifest(a), AttachmentKeys.manifest(b));
  }

  @Test
  void aManifest_readsBackAsWritten_forAnyNamesAndTypes() {
    qt().withExamples(200).forAll(anything(), anything(), longs().between(0, 20L << 20), generations()).checkAssert((name, type, size, at) -> {
      SharedAttachments.Place place = new SharedAttachments.Place("vm", Instant.EPOCH, new SessionKey(type, name));
      AttachmentManifest.Entry e = new AttachmentManifest.Entry(new SharedAttachments.Stored(name, type, size, at), "o/" + name,
          "nuid", "SHA-256=x");
      AttachmentManifest m = AttachmentManifest.empty(place).with(e).with(e);
      AttachmentManifest back = AttachmentManifest.parse("k", m.toJson());
      assertEquals(m, back);
      assertTrue(back.isOf(place));
      assertEquals(List.of(e, e), back.entries());
    });
  }
}
