package dev.tether.media;

import dev.tether.api.TetherException;
import dev.tether.api.ErrorCode;
import dev.tether.api.testing.TestClock;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MediaRegistryTest {
  private final TestClock clock = new TestClock();
  private final MediaRegistry registry = MediaRegistry.builder().clock(clock).build();

  private MediaReference ref(String id, Duration ttl) {
    return MediaReference.builder(id, "telegram", MediaKind.IMAGE, "image/jpeg")
        .createdAt(clock.instant()).ttl(ttl).build();
  }

  @Test
  void get_returnsReferenceUntilItsTtlPassesThenRequireSaysExpired() {
    registry.register(ref("tg_1", Duration.ofMinutes(30)));
    clock.advance(Duration.ofMinutes(30).minusNanos(1));
    assertEquals("tg_1", registry.require("tg_1").id());
    clock.advance(Duration.ofNanos(1));
    assertTrue(registry.get("tg_1").isEmpty());
    TetherException e = assertThrows(TetherException.class, () -> registry.require("tg_1"));
    assertEquals(ErrorCode.EXPIRED_REF, e.code());
    assertTrue(e.getMessage().contains("expired at 2026-04-15T10:30:00Z"), e.getMessage());
  }

  @Test
  void require_neverRegisteredIdIsUnknown() {
    TetherException e = assertThrows(TetherException.class, () -> registry.require("nope"));
    assertEquals(ErrorCode.UNKNOWN_REF, e.code());
  }

  @Test
  void expiry_isPerEntry() {
    registry.register(ref("short", Duration.ofMinutes(1)));
    registry.register(ref("long", Duration.ofMinutes(10)));
    clock.advance(Duration.ofMinutes(2));
    registry.prune();
    assertEquals(List.of("long"), ids(registry.list()));
    assertEquals(ErrorCode.EXPIRED_REF,
        assertThrows(TetherException.class, () -> registry.require("short")).code());
  }

  @Test
  void expiry_countsFromCreationNotRegistration() {
    MediaReference old = MediaReference.builder("old", "telegram", MediaKind.IMAGE, "image/png")
        .createdAt(clock.instant().minus(Duration.ofMinutes(25))).ttl(Duration.ofMinutes(30)).build();
    registry.register(old);
    clock.advance(Duration.ofMinutes(5));
    assertTrue(registry.get("old").isEmpty());
  }

  @Test
  void register_alreadyExpiredReferenceIsReportedExpired() {
    MediaReference stale = MediaReference.builder("stale", "telegram", MediaKind.IMAGE, "image/png")
        .createdAt(clock.instant().minus(Duration.ofHours(1))).ttl(Duration.ofMinutes(30)).build();
    registry.register(stale);
    assertEquals(ErrorCode.EXPIRED_REF,
        assertThrows(TetherException.class, () -> registry.require("stale")).code());
  }

  @Test
  void register_sameIdReplacesAndRestartsExpiry() {
    registry.register(ref("a", Duration.ofMinutes(1)));
    clock.advance(Duration.ofSeconds(50));
    registry.register(ref("a", Duration.ofMinutes(1)));
    clock.advance(Duration.ofSeconds(50));
    assertTrue(registry.get("a").isPresent());
  }

  @Test
  void maximumSize_boundsTheNumberOfReferences() {
    MediaRegistry small = MediaRegistry.builder().clock(clock).maximumSize(3).build();
    for (int i = 0; i < 20; i++) {
      small.register(ref("r" + i, Duration.ofHours(1)));
    }
    small.prune();
    assertTrue(small.list().size() <= 3, "size " + small.list().size());
  }

  @Test
  void list_isNewestFirst() {
    registry.register(ref("first", Duration.ofHours(1)));
    clock.advance(Duration.ofSeconds(1));
    registry.register(ref("third", Duration.ofHours(1)));
    registry.register(MediaReference.builder("second", "telegram", MediaKind.VOICE, "audio/ogg")
        .createdAt(clock.instant().minusMillis(500)).build());
    assertEquals(List.of("third", "second", "first"), ids(registry.list()));
  }

  @Test
  void listText_showsOnePlaceholderPerLineWithoutCaptionLineBreaks() {
    assertEquals("No media available.", registry.listText());
    registry.register(MediaReference.builder("wa_1", "whatsapp", MediaKind.IMAGE, "image/jpeg")
        .fileName("sunset.jpg").size(2_400_000).caption("two\nlines").createdAt(clock.instant()).build());
    assertEquals("- [Image: sunset.jpg, 2.4MB, image/jpeg, ref:wa_1] two lines", registry.listText());
  }

  @Test
  void saveThenLoad_roundTripsEveryField(@TempDir Path dir) throws IOException {
    registry.register(MediaReference.builder("wa_3EB0A1B2", "whatsapp", MediaKind.IMAGE, "image/jpeg")
        .chat("123@s.whatsapp.net").messageId("3EB0A1B2").fileName("sunset ☀.jpg").size(2_400_000)
        .caption("Beautiful \"sunset\"\n😀").downloadInfo(Map.of("message", "{\"key\":1}", "url", "https://x/y"))
        .createdAt(clock.instant()).ttl(Duration.ofMillis(1_800_123)).build());
    registry.register(MediaReference.builder("tg_AgACAgI", "telegram", MediaKind.VOICE, "audio/ogg; codecs=opus")
        .createdAt(clock.instant().plusSeconds(1)).ttl(Duration.ofDays(365)).build());
    Path file = dir.resolve("ipc/media_refs.json");
    registry.save(file);

    MediaRegistry other = MediaRegistry.builder().clock(clock).build();
    assertEquals(2, other.load(file));
    assertEquals(registry.list(), other.list());
    try (Stream<Path> files = Files.list(file.getParent())) {
      assertEquals(List.of(file), files.toList(), "no temp file is left behind");
    }
    String json = Files.readString(file);
    assertTrue(json.contains("\"expires_at\" : \"2026-04-15T10:30:00.123Z\""), json);
  }

  @Test
  void save_withAFilterWritesOnlyThatChatsReferences(@TempDir Path dir) throws IOException {
    registry.register(MediaReference.builder("a1", "whatsapp", MediaKind.IMAGE, "image/png").chat("group-a")
        .downloadInfo(Map.of("token", "secret-a")).createdAt(clock.instant()).build());
    registry.register(MediaReference.builder("b1", "whatsapp", MediaKind.IMAGE, "image/png").chat("group-b")
        .downloadInfo(Map.of("token", "secret-b")).createdAt(clock.instant()).build());
    Path file = dir.resolve("group-a/media_refs.json");
    registry.save(file, ref -> ref.chat().equals("group-a"));
    assertFalse(Files.readString(file).contains("secret-b"));
    MediaRegistry other = MediaRegistry.builder().clock(clock).build();
    other.load(file);
    assertEquals(List.of("a1"), ids(other.list()));
    assertEquals(List.of("b1"), ids(registry.list(ref -> ref.chat().equals("group-b"))));
  }

  @Test
  void save_isOwnerOnlyByDefaultAndUsesConfiguredPermissions(@TempDir Path dir) throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.getFileStore(dir).supportsFileAttributeView(java.nio.file.attribute.PosixFileAttributeView.class));
    registry.register(ref("a", Duration.ofHours(1)));
    Path owner = dir.resolve("owner.json");
    registry.save(owner);
    assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(owner)));
    MediaRegistry shared = MediaRegistry.builder().clock(clock)
        .filePermissions(java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--")).build();
    shared.register(ref("a", Duration.ofHours(1)));
    Path group = dir.resolve("group.json");
    shared.save(group);
    assertEquals("rw-r--r--", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(group)));
  }

  @Test
  void save_loneSurrogatesInTextBecomeReplacementCharactersSoTheFileStaysReadable(@TempDir Path dir) throws IOException {
    registry.register(MediaReference.builder("s1", "telegram", MediaKind.DOCUMENT, "text/plain")
        .caption("bad \ud800 end").fileName("x\udc00.txt").downloadInfo(Map.of("k\ud800", "v"))
        .createdAt(clock.instant()).build());
    Path file = dir.resolve("refs.json");
    registry.save(file);
    MediaRegistry other = MediaRegistry.builder().clock(clock).build();
    other.load(file);
    MediaReference back = other.require("s1");
    assertEquals("bad \uFFFD end", back.caption());
    assertEquals("x\uFFFD.txt", back.fileName());
    assertEquals(Map.of("k\uFFFD", "v"), back.downloadInfo());
  }

  @Test
  void save_replacesThePreviousFileWhole(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("media_refs.json");
    for (int i = 0; i < 5; i++) {
      registry.register(ref("r" + i, Duration.ofHours(1)));
    }
    registry.save(file);
    for (int i = 0; i < 5; i++) {
      registry.remove("r" + i);
    }
    registry.register(ref("only", Duration.ofHours(1)));
    registry.save(file);
    MediaRegistry other = MediaRegistry.builder().clock(clock).build();
    other.load(file);
    assertEquals(List.of("only"), ids(other.list()));
  }

  @Test
  void load_skipsExpiredEntriesAndRemembersThemAsExpired(@TempDir Path dir) throws IOException {
    registry.register(ref("soon", Duration.ofMinutes(1)));
    registry.register(ref("later", Duration.ofHours(1)));
    Path file = dir.resolve("refs.json");
    registry.save(file);
    clock.advance(Duration.ofMinutes(2));
    MediaRegistry other = MediaRegistry.builder().clock(clock).build();
    assertEquals(1, other.load(file));
    assertEquals(List.of("later"), ids(other.list()));
    assertEquals(ErrorCode.EXPIRED_REF,
        assertThrows(TetherException.class, () -> other.require("soon")).code());
  }

  @Test
  void load_keepsTheInMemoryReferenceForAnIdAlreadyRegistered(@TempDir Path dir) throws IOException {
    registry.register(ref("a", Duration.ofHours(1)));
    Path file = dir.resolve("refs.json");
    registry.save(file);
    MediaReference mine = MediaReference.builder("a", "slack", MediaKind.DOCUMENT, "application/pdf")
        .createdAt(clock.instant()).build();
    MediaRegistry other = MediaRegistry.builder().clock(clock).build();
    other.register(mine);
    assertEquals(0, other.load(file));
    assertEquals(mine, other.require("a"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "not json", "[]", "{}", "{\"version\":2,\"refs\":[]}", "{\"version\":\"1\",\"refs\":[]}",
      "{\"version\":1,\"refs\":{}}", "{\"version\":1,\"refs\":[]} trailing",
      "{\"version\":1,\"version\":1,\"refs\":[]}",
      "{\"version\":1,\"refs\":[1]}",
      "{\"version\":1,\"refs\":[{\"id\":\"../../etc\",\"channel\":\"t\",\"kind\":\"image\",\"mime_type\":\"image/png\",\"created_at\":\"2026-04-15T10:00:00Z\",\"ttl_ms\":1000}]}",
      "{\"version\":1,\"refs\":[{\"id\":\"a\",\"channel\":\"t\",\"kind\":\"photo\",\"mime_type\":\"image/png\",\"created_at\":\"2026-04-15T10:00:00Z\",\"ttl_ms\":1000}]}",
      "{\"version\":1,\"refs\":[{\"id\":\"a\",\"channel\":\"t\",\"kind\":\"image\",\"mime_type\":\"image/png\",\"created_at\":\"yesterday\",\"ttl_ms\":1000}]}",
      "{\"version\":1,\"refs\":[{\"id\":\"a\",\"channel\":\"t\",\"kind\":\"image\",\"mime_type\":\"image/png\",\"created_at\":\"2026-04-15T10:00:00Z\",\"ttl_ms\":-5}]}",
      "{\"version\":1,\"refs\":[{\"id\":\"a\",\"channel\":\"t\",\"kind\":\"image\",\"mime_type\":\"png\",\"created_at\":\"2026-04-15T10:00:00Z\",\"ttl_ms\":1000}]}",
      "{\"version\":1,\"refs\":[{\"id\":\"a\",\"channel\":\"t\",\"kind\":\"image\",\"mime_type\":\"image/png\",\"created_at\":\"2026-04-15T10:00:00Z\",\"ttl_ms\":1000,\"download_info\":{\"k\":1}}]}",
      "{\"version\":1,\"refs\":[{\"id\":\"a\",\"channel\":\"t\",\"kind\":\"image\",\"mime_type\":\"image/png\",\"created_at\":\"2026-04-15T10:00:00Z\",\"ttl_ms\":99999999999999999999999}]}",
      "{\"version\":1,\"refs\":[{\"id\":\"a\",\"channel\":\"t\",\"kind\":\"image\",\"mime_type\":\"image/png\",\"created_at\":\"2026-04-15T10:00:00Z\",\"ttl_ms\":1000,\"size\":-7}]}",
      "{\"version\":1,\"refs\":[{\"id\":\"a\",\"channel\":\"t\",\"kind\":\"image\",\"mime_type\":\"image/png\",\"created_at\":\"2026-04-15T10:00:00Z\""})
  void load_corruptOrHostileFileIsAClearErrorAndChangesNothing(String content, @TempDir Path dir) throws IOException {
    registry.register(ref("kept_1", Duration.ofHours(1)));
    registry.register(ref("kept_2", Duration.ofHours(1)));
    List<MediaReference> before = registry.list();
    Path file = dir.resolve("refs.json");
    Files.writeString(file, content, StandardCharsets.UTF_8);
    MediaFormatException e = assertThrows(MediaFormatException.class, () -> registry.load(file));
    assertTrue(e.getMessage().startsWith("media registry file " + file), e.getMessage());
    assertEquals(before, registry.list());
  }

  @Test
  void load_deeplyNestedFileIsRejected(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("refs.json");
    Files.writeString(file, "{\"version\":1,\"x\":" + "[".repeat(10_000) + "]".repeat(10_000) + ",\"refs\":[]}");
    assertThrows(MediaFormatException.class, () -> registry.load(file));
  }

  @Test
  void load_fileOverTheSizeLimitIsRejectedWithoutParsing(@TempDir Path dir) throws IOException {
    MediaRegistry small = MediaRegistry.builder().clock(clock).maxFileBytes(100).build();
    Path file = dir.resolve("refs.json");
    Files.writeString(file, "{\"version\":1,\"refs\":[]}" + " ".repeat(200));
    MediaFormatException e = assertThrows(MediaFormatException.class, () -> small.load(file));
    assertTrue(e.getMessage().contains("larger than 100 bytes"), e.getMessage());
  }

  @Test
  void load_missingFileIsAnIoErrorNotAFormatError(@TempDir Path dir) {
    IOException e = assertThrows(IOException.class, () -> registry.load(dir.resolve("absent.json")));
    assertFalse(e instanceof MediaFormatException);
  }

  @Test
  void register_fromManyThreadsKeepsEveryReference() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          for (int i = 0; i < 500; i++) {
            registry.register(ref("t" + thread + "_" + i, Duration.ofHours(1)));
            registry.require("t" + thread + "_" + i);
          }
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    assertEquals(4000, registry.size());
  }

  @Test
  void builder_failsFastNamingTheSetting() {
    assertEquals("maximumSize must be > 0 but was 0",
        assertThrows(IllegalArgumentException.class, () -> MediaRegistry.builder().maximumSize(0)).getMessage());
    assertEquals("maxFileBytes must be > 0 but was -1",
        assertThrows(IllegalArgumentException.class, () -> MediaRegistry.builder().maxFileBytes(-1)).getMessage());
  }

  @Test
  void reference_rejectsIdsThatCouldBreakPlaceholdersOrPaths() {
    for (String bad : new String[] {"", "a b", "../x", "a]b", "a\u0000", "x".repeat(129)}) {
      assertThrows(IllegalArgumentException.class,
          () -> MediaReference.builder(bad, "t", MediaKind.IMAGE, "image/png").build(), bad);
    }
    assertThrows(IllegalArgumentException.class,
        () -> MediaReference.builder("a", "t", MediaKind.IMAGE, "image/png").ttl(Duration.ZERO).build());
  }

  private static List<String> ids(List<MediaReference> refs) {
    return refs.stream().map(MediaReference::id).toList();
  }
}
