package dev.tether.media;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tether.api.testing.TestClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MediaCacheStatsTest {
  private final TestClock clock = new TestClock();

  private MediaReference ref(String id) {
    return MediaReference.builder(id, "telegram", MediaKind.IMAGE, "image/jpeg")
        .createdAt(clock.instant()).ttl(Duration.ofMinutes(30)).build();
  }

  @Test
  void recordStats_countsHitsMissesAndSizeEvictions() {
    MediaRegistry registry = MediaRegistry.builder().clock(clock).maximumSize(1).recordStats(true).build();
    registry.register(ref("a"));
    registry.get("a");
    registry.get("nope");
    assertEquals(new MediaCacheStats(1, 1, 0, 1), registry.stats());
    registry.register(ref("b")); // over maximumSize 1: Caffeine evicts one (at once: same-thread executor)
    MediaCacheStats s = registry.stats();
    assertEquals(1, s.evictions(), s.toString());
    assertEquals(1, s.size());
  }

  @Test
  void withoutRecordStats_countsStayZero_sizeStillShows() {
    MediaRegistry registry = MediaRegistry.builder().clock(clock).build();
    registry.register(ref("a"));
    registry.get("a");
    registry.get("nope");
    assertEquals(new MediaCacheStats(0, 0, 0, 1), registry.stats());
  }
}
