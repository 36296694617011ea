package dev.tether.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.api.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The registry's two bounds, as a lazy-media bridge relies on them: the size cap and each reference's TTL. */
class MediaRegistryBoundsPropertyTest {
  private static final Instant START = Instant.parse("2026-11-25T21:00:00Z");

  @Test
  void registeringAnyNumber_neverKeepsMoreThanMaximumSize_andKeepsOnlyWhatWasRegistered() {
    qt().withExamples(200).forAll(integers().between(1, 30), integers().between(0, 120)).checkAssert((max, count) -> {
      TestClock clock = new TestClock(START);
      MediaRegistry registry = MediaRegistry.builder().maximumSize(max).clock(clock).build();
      Set<String> registered = new HashSet<>();
      for (int i = 0; i < count; i++) {
        registered.add(registry.register(ref("tg_" + i, Duration.ofMinutes(30))));
      }
      registry.prune();
      List<MediaReference> live = registry.list();
      assertTrue(live.size() <= max, live.size() + " > " + max);
      assertEquals(Math.min(max, count), registry.size(), "below the cap nothing is evicted");
      assertTrue(registered.containsAll(live.stream().map(MediaReference::id).collect(Collectors.toSet())));
    });
  }

  @Test
  void afterAnyAdvance_exactlyTheRefsWhoseTtlPassedAreExpired_andSayExpired() {
    qt().withExamples(200).forAll(lists().of(integers().between(1, 3600)).ofSizeBetween(0, 20), integers().between(0, 4000))
        .checkAssert((ttlSeconds, advance) -> {
          TestClock clock = new TestClock(START);
          MediaRegistry registry = MediaRegistry.builder().clock(clock).build();
          for (int i = 0; i < ttlSeconds.size(); i++) {
            registry.register(ref("tg_" + i, Duration.ofSeconds(ttlSeconds.get(i))));
          }
          clock.advance(Duration.ofSeconds(advance));
          Set<String> live = registry.list().stream().map(MediaReference::id).collect(Collectors.toSet());
          for (int i = 0; i < ttlSeconds.size(); i++) {
            String id = "tg_" + i;
            if (ttlSeconds.get(i) > advance) {
              assertTrue(live.contains(id), id + " is still live");
              assertEquals(id, registry.require(id).id());
            } else {
              assertTrue(!live.contains(id), id + " expired");
              assertEquals(ErrorCode.EXPIRED_REF, assertThrows(TetherException.class, () -> registry.require(id)).code());
            }
          }
        });
  }

  private static MediaReference ref(String id, Duration ttl) {
    return MediaReference.builder(id, "telegram", MediaKind.IMAGE, "image/jpeg").chat("-100200300")
        .downloadInfo(java.util.Map.of("file_id", "f-" + id)).createdAt(START).ttl(ttl).build();
  }
}
