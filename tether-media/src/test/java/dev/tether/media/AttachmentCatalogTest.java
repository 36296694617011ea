package dev.tether.media;

import dev.tether.api.testing.TestClock;
import dev.tether.api.testing.TestImages;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.media.internal.MediaFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AttachmentCatalogTest {
  @TempDir
  Path root;
  private final TestClock clock = new TestClock();

  private Path dir() {
    return root.resolve("sessions/run-1/attachments");
  }

  private AttachmentCatalog open() throws IOException {
    return AttachmentCatalog.builder(dir()).clock(clock).open();
  }

  private static AttachmentUpload upload(String name, byte[] bytes, String mime) {
    return new AttachmentUpload(name, Base64.getEncoder().encodeToString(bytes), mime);
  }

  private static AttachmentUpload text(String name, String content, String mime) {
    return upload(name, content.getBytes(StandardCharsets.UTF_8), mime);
  }

  @Test
  void listText_matchesTheSpecLineFormatExactly() throws IOException {
    AttachmentCatalog catalog = open();
    assertEquals("No attachments.", catalog.listText());
    catalog.save(upload("screenshot.png", TestImages.png(480103), "image/png"));
    catalog.save(text("foo.py", "x".repeat(1234), "text/x-python"));
    assertEquals("- screenshot.png (480103 bytes, image/png)\n- foo.py (1234 bytes, text/x-python)", catalog.listText());
  }

  @Test
  void save_keepsTheClientMimeTypeVerbatimWithoutSniffing() throws IOException {
    AttachmentCatalog catalog = open();
    // PNG bytes declared as text, and a .png name declared as something else: the declaration wins.
    Attachment a = catalog.save(upload("image.bin", TestImages.png(100), "text/plain"));
    Attachment b = catalog.save(text("notes.png", "hello", "Application/X-Custom; charset=utf-8"));
    Attachment c = catalog.save(text("noext", "hello", null));
    assertEquals("text/plain", a.mimeType());
    assertEquals("Application/X-Custom; charset=utf-8", b.mimeType());
    assertEquals("application/octet-stream", c.mimeType());
    String manifest = Files.readString(dir().resolve(".manifest.json"));
    assertTrue(manifest.contains("\"mime_type\" : \"Application/X-Custom; charset=utf-8\""), manifest);
  }

  @Test
  void open_readsBackTheManifestWritten() throws IOException {
    AttachmentCatalog catalog = open();
    catalog.save(text("a.txt", "alpha", "text/plain"));
    clock.advance(java.time.Duration.ofSeconds(3));
    catalog.save(upload("b.png", TestImages.png(64), "image/png"));
    AttachmentCatalog reopened = open();
    assertEquals(catalog.list(), reopened.list());
    assertEquals("alpha", reopened.read("a.txt").text());
  }

  @ParameterizedTest
  @ValueSource(strings = {"../../etc/passwd", "/etc/passwd", "..\\..\\windows\\system32\\config", "%2e%2e%2fsecret",
      "%2e%2e", "a\u0000b.txt", "..", ".", "", "C:\\x\\y.txt", ".hidden", ".manifest.json", "CON.txt", "....",
      "foo/..", "a/b/../../c", "\u202Egnp.exe", "line\nbreak.txt", "trailing. . ."})
  void save_hostileNameStaysAPlainFileInsideTheDirectory(String name) throws IOException {
    AttachmentCatalog catalog = open();
    Attachment a = catalog.save(text(name, "content", "text/plain"));
    assertEquals(MediaFiles.sanitise(name), a.fileName());
    assertFalse(a.fileName().startsWith("."), a.fileName());
    assertFalse(a.fileName().contains("/") || a.fileName().contains("\\") || a.fileName().contains("\0"), a.fileName());
    Path saved = dir().resolve(a.fileName());
    assertEquals(dir().toAbsolutePath().normalize(), saved.toAbsolutePath().normalize().getParent());
    assertEquals("content", Files.readString(saved));
    try (Stream<Path> all = Files.walk(root)) {
      assertEquals(2, all.filter(Files::isRegularFile).count(), "only the attachment and the manifest exist");
    }
    assertEquals("content", catalog.read(a.fileName()).text());
  }

  @Test
  void save_duplicateNameGetsASuffixInsteadOfOverwriting() throws IOException {
    AttachmentCatalog catalog = open();
    assertEquals("shot.png", catalog.save(text("shot.png", "one", "image/png")).fileName());
    assertEquals("shot-1.png", catalog.save(text("shot.png", "two", "image/png")).fileName());
    assertEquals("shot-2.png", catalog.save(text("dir/shot.png", "three", "image/png")).fileName());
    assertEquals("SHOT-3.png", catalog.save(text("SHOT.png", "four", "image/png")).fileName());
    assertEquals("Makefile", catalog.save(text("Makefile", "x", null)).fileName());
    assertEquals("Makefile-1", catalog.save(text("Makefile", "y", null)).fileName());
    assertEquals("one", Files.readString(dir().resolve("shot.png")));
    assertEquals("two", Files.readString(dir().resolve("shot-1.png")));
  }

  @Test
  void save_doesNotOverwriteAFileAlreadyOnDiskButMissingFromTheManifest() throws IOException {
    Files.createDirectories(dir());
    Files.writeString(dir().resolve("report.txt"), "older run");
    Attachment a = open().save(text("report.txt", "new", "text/plain"));
    assertEquals("report-1.txt", a.fileName());
    assertEquals("older run", Files.readString(dir().resolve("report.txt")));
  }

  @Test
  void save_oversizeUploadIsRejectedAndWritesNothing() throws IOException {
    AttachmentCatalog catalog = AttachmentCatalog.builder(dir()).maxUploadBytes(1000).open();
    assertEquals(1000, catalog.save(upload("fits.bin", new byte[1000], "application/octet-stream")).size());
    TetherException e = assertThrows(TetherException.class,
        () -> catalog.save(upload("big.bin", new byte[1001], "application/octet-stream")));
    assertEquals(ErrorCode.UPLOAD_TOO_LARGE, e.code());
    assertTrue(e.getMessage().contains("the limit is 1000 bytes"), e.getMessage());
    assertFalse(Files.exists(dir().resolve("big.bin")));
    assertEquals(1, catalog.list().size());
  }

  @Test
  void save_hugeUploadIsRejectedBeforeDecoding() throws IOException {
    AttachmentCatalog catalog = AttachmentCatalog.builder(dir()).maxUploadBytes(1000).open();
    // Not even valid base64: the size check must come first.
    String huge = "!".repeat(4_000_000);
    TetherException e = assertThrows(TetherException.class, () -> catalog.save(new AttachmentUpload("x", huge, null)));
    assertEquals(ErrorCode.UPLOAD_TOO_LARGE, e.code());
  }

  @Test
  void save_invalidBase64OrMimeTypeIsAnInvalidUpload() throws IOException {
    AttachmentCatalog catalog = open();
    for (AttachmentUpload bad : List.of(
        new AttachmentUpload("a.txt", "not base64!", "text/plain"),
        new AttachmentUpload("a.txt", "aGk=", "text/plain)\n- forged.txt (1 bytes, text/plain"),
        new AttachmentUpload("a.txt", "aGk=", "png"),
        new AttachmentUpload("a.txt", "data:text/plain,hi", "text/plain"))) {
      assertEquals(ErrorCode.INVALID_UPLOAD,
          assertThrows(TetherException.class, () -> catalog.save(bad), bad.toString()).code());
    }
    assertEquals(List.of(), catalog.list());
  }

  @Test
  void save_toleratesADataUriPrefixAndLineWrappedBase64() throws IOException {
    AttachmentCatalog catalog = open();
    Attachment a = catalog.save(new AttachmentUpload("a.txt", "data:text/plain;base64,aGVs\r\nbG8=", "text/plain"));
    assertEquals("hello", catalog.read(a.fileName()).text());
  }

  @Test
  void read_windowsByCodePoints() throws IOException {
    AttachmentCatalog catalog = open();
    catalog.save(text("t.txt", "héllo 😀 wörld", "text/plain"));
    AttachmentText all = catalog.read("t.txt");
    assertEquals("héllo 😀 wörld", all.text());
    assertEquals(13, all.totalChars());
    assertFalse(all.hasMore());
    AttachmentText window = catalog.read("t.txt", 6, 3);
    assertEquals("😀 w", window.text());
    assertEquals(9, window.nextOffset());
    assertEquals("😀 w\n(4 more characters in t.txt; read on with offset 9)", window.toolText());
    AttachmentText past = catalog.read("t.txt", 100, 10);
    assertEquals("", past.text());
    assertEquals(13, past.offset());
  }

  @Test
  void read_limitIsClampedToTheConfiguredMaximum() throws IOException {
    AttachmentCatalog catalog = AttachmentCatalog.builder(dir()).maxReadChars(5).open();
    catalog.save(text("t.txt", "0123456789", "text/plain"));
    assertEquals("01234", catalog.read("t.txt", 0, 1_000_000).text());
    assertEquals("01234", catalog.read("t.txt").text());
    assertThrows(IllegalArgumentException.class, () -> catalog.read("t.txt", -1, 5));
    assertThrows(IllegalArgumentException.class, () -> catalog.read("t.txt", 0, 0));
  }

  @Test
  void read_replacesInvalidUtf8() throws IOException {
    AttachmentCatalog catalog = open();
    catalog.save(upload("bad.txt", new byte[] {'f', (byte) 0xFF, 'o', (byte) 0xC3}, "text/plain"));
    assertEquals("f\uFFFDo\uFFFD", catalog.read("bad.txt").text());
  }

  @Test
  void read_refusesABinaryFileWithAClearMessage() throws IOException {
    AttachmentCatalog catalog = open();
    byte[] png = TestImages.png(500);
    png[100] = 0;
    catalog.save(upload("screenshot.png", png, "image/png"));
    TetherException e = assertThrows(TetherException.class, () -> catalog.read("screenshot.png"));
    assertEquals(ErrorCode.BINARY_ATTACHMENT, e.code());
    assertEquals("screenshot.png is a binary file (image/png) and cannot be read as text; use view_attachment to see an image",
        e.getMessage());
  }

  @Test
  void read_nulAfterTheFirst8KiBStillCountsAsText() throws IOException {
    AttachmentCatalog catalog = open();
    byte[] bytes = "a".repeat(9000).getBytes(StandardCharsets.US_ASCII);
    bytes[8192] = 0;
    bytes[8191] = 0 + 'b';
    catalog.save(upload("log.txt", bytes, "text/plain"));
    assertEquals(9000, catalog.read("log.txt").totalChars());
    bytes[8191] = 0;
    catalog.save(upload("log2.txt", bytes, "text/plain"));
    assertThrows(TetherException.class, () -> catalog.read("log2.txt"));
  }

  @Test
  void readAndView_unknownOrTraversalNamesAreUnknownAttachments() throws IOException {
    AttachmentCatalog catalog = open();
    catalog.save(text("a.txt", "x", "text/plain"));
    for (String name : new String[] {"b.txt", "../a.txt", ".manifest.json", "A.TXT", "/a.txt"}) {
      assertEquals(ErrorCode.UNKNOWN_ATTACHMENT,
          assertThrows(TetherException.class, () -> catalog.read(name), name).code());
      assertEquals(ErrorCode.UNKNOWN_ATTACHMENT,
          assertThrows(TetherException.class, () -> catalog.view(name, true), name).code());
    }
  }

  @Test
  void view_returnsTheValidatedImage() throws IOException {
    AttachmentCatalog catalog = open();
    byte[] png = TestImages.png(2048);
    catalog.save(upload("screenshot.png", png, "image/png"));
    Image image = catalog.view("screenshot.png", true);
    assertEquals(MediaType.PNG, image.mediaType());
    assertArrayEquals(png, Base64.getDecoder().decode(image.data()));
  }

  @Test
  void view_mimeTypeThatDoesNotMatchTheBytesIsAClearError() throws IOException {
    AttachmentCatalog catalog = open();
    catalog.save(upload("photo.png", TestImages.jpeg(300), "image/png"));
    catalog.save(text("fake.gif", "GIF? no, text", "image/gif"));
    TetherException e = assertThrows(TetherException.class, () -> catalog.view("photo.png", true));
    assertEquals(ErrorCode.MEDIA_TYPE_MISMATCH, e.code());
    assertTrue(e.getMessage().contains("declared as image/png but its bytes are image/jpeg"), e.getMessage());
    assertEquals(ErrorCode.MEDIA_TYPE_MISMATCH, assertThrows(TetherException.class, () -> catalog.view("fake.gif", true)).code());
  }

  @Test
  void view_nonImageMimeTypeOrTargetWithoutVisionIsACleanError() throws IOException {
    AttachmentCatalog catalog = open();
    catalog.save(text("report.pdf", "%PDF", "application/pdf"));
    catalog.save(upload("photo.heic", TestImages.png(100), "image/heic"));
    catalog.save(upload("ok.png", TestImages.png(100), "image/png"));
    TetherException pdf = assertThrows(TetherException.class, () -> catalog.view("report.pdf", true));
    assertEquals(ErrorCode.NOT_AN_IMAGE, pdf.code());
    assertEquals("report.pdf is application/pdf, not an image a model can view (image/png, image/jpeg, image/gif"
        + " or image/webp); use read_attachment for text", pdf.getMessage());
    assertEquals(ErrorCode.NOT_AN_IMAGE,
        assertThrows(TetherException.class, () -> catalog.view("photo.heic", true)).code());
    assertEquals(ErrorCode.VISION_UNSUPPORTED,
        assertThrows(TetherException.class, () -> catalog.view("ok.png", false)).code());
  }

  @Test
  void view_imageOverTheImageLimitIsRejected() throws IOException {
    AttachmentCatalog catalog = AttachmentCatalog.builder(dir())
        .limits(dev.tether.api.Limits.builder().maxImageBytes(1000).build()).open();
    catalog.save(upload("big.png", TestImages.png(1001), "image/png"));
    assertEquals(ErrorCode.IMAGE_TOO_LARGE, assertThrows(TetherException.class, () -> catalog.view("big.png", true)).code());
  }

  @Test
  void images_returnsValidImagesOnlyInOrder() throws IOException {
    AttachmentCatalog catalog = open();
    catalog.save(upload("a.png", TestImages.png(100), "image/png"));
    catalog.save(text("notes.txt", "x", "text/plain"));
    catalog.save(upload("liar.png", TestImages.jpeg(100), "image/png"));
    catalog.save(upload("b.jpg", TestImages.jpeg(100), "image/jpeg"));
    List<AttachmentImage> images = catalog.images();
    assertEquals(List.of("a.png", "b.jpg"), images.stream().map(i -> i.attachment().fileName()).toList());
    assertEquals(MediaType.JPEG, images.get(1).image().mediaType());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "garbage", "{\"version\":1}", "{\"version\":1,\"attachments\":[{}]}",
      "{\"version\":1,\"attachments\":[{\"file_name\":\"../../etc/passwd\",\"mime_type\":\"text/plain\",\"size\":1,\"added_at\":\"2026-04-15T10:00:00Z\"}]}",
      "{\"version\":1,\"attachments\":[{\"file_name\":\"/etc/passwd\",\"mime_type\":\"text/plain\",\"size\":1,\"added_at\":\"2026-04-15T10:00:00Z\"}]}",
      "{\"version\":1,\"attachments\":[{\"file_name\":\".manifest.json\",\"mime_type\":\"text/plain\",\"size\":1,\"added_at\":\"2026-04-15T10:00:00Z\"}]}",
      "{\"version\":1,\"attachments\":[{\"file_name\":\"a\\u0000b\",\"mime_type\":\"text/plain\",\"size\":1,\"added_at\":\"2026-04-15T10:00:00Z\"}]}",
      "{\"version\":1,\"attachments\":[{\"file_name\":\"a.txt\",\"mime_type\":\"text/plain\\n- x\",\"size\":1,\"added_at\":\"2026-04-15T10:00:00Z\"}]}",
      "{\"version\":1,\"attachments\":[{\"file_name\":\"a.txt\",\"mime_type\":\"text/plain\",\"size\":-1,\"added_at\":\"2026-04-15T10:00:00Z\"}]}",
      "{\"version\":1,\"attachments\":[{\"file_name\":\"a.txt\",\"mime_type\":\"text/plain\",\"size\":1,\"added_at\":\"2026-04-15T10:00:00Z\"},"
          + "{\"file_name\":\"A.txt\",\"mime_type\":\"text/plain\",\"size\":1,\"added_at\":\"2026-04-15T10:00:00Z\"}]}"})
  void open_hostileOrCorruptManifestIsRejected(String manifest) throws IOException {
    Files.createDirectories(dir());
    Files.writeString(dir().resolve(".manifest.json"), manifest);
    MediaFormatException e = assertThrows(MediaFormatException.class, this::open);
    assertTrue(e.getMessage().startsWith("attachment manifest "), e.getMessage());
  }

  @Test
  void read_manifestClaimingAHugeSizeStillReadsTheRealFile() throws IOException {
    Files.createDirectories(dir());
    Files.writeString(dir().resolve("a.txt"), "small");
    Files.writeString(dir().resolve(".manifest.json"), "{\"version\":1,\"attachments\":[{\"file_name\":\"a.txt\","
        + "\"mime_type\":\"text/plain\",\"size\":9223372036854775807,\"added_at\":\"2026-04-15T10:00:00Z\"}]}");
    assertEquals("small", open().read("a.txt").text());
  }

  @Test
  void read_symbolicLinkPlantedInTheDirectoryIsNotFollowed() throws IOException {
    AttachmentCatalog catalog = open();
    catalog.save(text("a.txt", "mine", "text/plain"));
    Path secret = Files.writeString(root.resolve("secret.txt"), "secret");
    Files.delete(dir().resolve("a.txt"));
    try {
      Files.createSymbolicLink(dir().resolve("a.txt"), secret);
    } catch (UnsupportedOperationException | IOException e) {
      org.junit.jupiter.api.Assumptions.abort("no symbolic links here: " + e);
    }
    IOException e = assertThrows(IOException.class, () -> catalog.read("a.txt"));
    assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
  }

  @Test
  void open_fifoAsManifest_isRefusedWithinSeconds_throughAnOpenedDirectory() throws Exception {
    Path sessionDir = Files.createDirectories(root.resolve("handle/session"));
    Process p = new ProcessBuilder("mkfifo", sessionDir.resolve(".manifest.json").toString()).inheritIO().start();
    org.junit.jupiter.api.Assumptions.assumeTrue(p.waitFor() == 0, "mkfifo works here");
    long start = System.nanoTime();
    try (dev.tether.sessions.ConfinedDirectory base = dev.tether.sessions.ConfinedDirectory.open(root.resolve("handle"));
        dev.tether.sessions.ConfinedDirectory session = base.directory("session")) {
      dev.tether.sessions.UnsafeFileException e = assertThrows(dev.tether.sessions.UnsafeFileException.class,
          () -> AttachmentCatalog.builder(session).open());
      assertEquals("session/.manifest.json", e.getFile());
    }
    assertTrue(System.nanoTime() - start < java.util.concurrent.TimeUnit.SECONDS.toNanos(3), "no thread blocked on the FIFO");
  }

  @Test
  void catalogOnAnOpenedDirectory_savesListsAndReadsThroughIt() throws Exception {
    Files.createDirectories(root.resolve("handle"));
    try (dev.tether.sessions.ConfinedDirectory base = dev.tether.sessions.ConfinedDirectory.open(root.resolve("handle"));
        dev.tether.sessions.ConfinedDirectory session = base.createDirectory("s")) {
      AttachmentCatalog catalog = AttachmentCatalog.builder(session).open();
      catalog.save("../../notes.txt", "text/plain", "hello".getBytes(StandardCharsets.UTF_8));
      assertEquals("hello", catalog.read("notes.txt").text());
      assertEquals(List.of("notes.txt"), AttachmentCatalog.builder(session).open().list().stream().map(Attachment::fileName).toList());
    }
    assertEquals(Set.of(".manifest.json", "notes.txt"), Set.of(root.resolve("handle/s").toFile().list()));
  }

  @Test
  void save_concurrentUploadsOfOneNameAllGetDistinctFiles() throws Exception {
    AttachmentCatalog catalog = open();
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CyclicBarrier go = new CyclicBarrier(threads);
    try {
      List<Future<Attachment>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        String body = "body " + i;
        futures.add(pool.submit(() -> {
          go.await();
          return catalog.save(text("same.txt", body, "text/plain"));
        }));
      }
      Set<String> names = new HashSet<>();
      Set<String> bodies = new HashSet<>();
      for (Future<Attachment> f : futures) {
        Attachment a = f.get();
        names.add(a.fileName());
        bodies.add(catalog.read(a.fileName()).text());
      }
      assertEquals(threads, names.size());
      assertEquals(threads, bodies.size(), "no upload overwrote another");
      assertEquals(threads, open().list().size(), "the manifest lists every upload");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void remove_dropsTheEntryFromTheManifestAndDeletesTheFile_andAnUnknownNameIsUnknownAttachment() throws IOException {
    Path dir = root.resolve("remove");
    AttachmentCatalog c = AttachmentCatalog.open(dir);
    c.save("a.txt", "text/plain", "a".getBytes(StandardCharsets.UTF_8));
    Attachment b = c.save("b.txt", "text/plain", "b".getBytes(StandardCharsets.UTF_8));
    assertEquals("a.txt", c.remove("a.txt").fileName());
    assertEquals(List.of(b), c.list());
    assertFalse(Files.exists(dir.resolve("a.txt")));
    assertEquals(List.of(b), AttachmentCatalog.open(dir).list(), "the manifest on disk no longer lists it");
    TetherException e = assertThrows(TetherException.class, () -> c.remove("a.txt"));
    assertEquals(ErrorCode.UNKNOWN_ATTACHMENT, e.code());
    assertEquals("a.txt", c.save("a.txt", "text/plain", new byte[1]).fileName(), "its name is free again");
  }
}
