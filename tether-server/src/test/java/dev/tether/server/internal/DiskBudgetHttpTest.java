package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.HostAddress;
import dev.tether.server.TetherServer;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.MemoryTetherStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk budget of an instance and {@code DELETE .../attachments/{name}} on a real server over
 * loopback TCP: uploads (attachments and blobs) past the budget get 507 INSUFFICIENT_STORAGE with the
 * numbers, concurrent uploads never pass it together, a delete frees room, and only the host token
 * or the instance's own token may delete.
 */
class DiskBudgetHttpTest {
  private static final String HOST = "Bearer " + "h".repeat(40);
  private static final int KIB = 1024;

  @TempDir Path dir;

  private TetherServer start(long diskBytes) throws Exception {
    return TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(HOST.substring(7))
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).attachmentsDirectory(dir.resolve("attachments"))
        .instance("vm1").instance("vm2").instanceDiskBytes(diskBytes).start();
  }

  private static RawHttp.Reply upload(RawHttp http, String instance, String name, int size, String auth) throws Exception {
    return http.send("POST", "/v1/instances/" + instance + "/attachments?session_id=s&name=" + name, "application/octet-stream",
        new byte[size], auth);
  }

  /** The bytes of the regular files kept for {@code instance}: its attachments (host-only) and its workspace blobs. */
  private long usedOnDisk(String instance) throws Exception {
    return regularFiles(dir.resolve("attachments").resolve(instance)).mapToLong(p -> p.toFile().length()).sum()
        + regularFiles(dir.resolve("ws").resolve(instance).resolve(".aegis")).mapToLong(p -> p.toFile().length()).sum();
  }

  /** Whether any entry named {@code name} exists below the attachments of {@code instance}. */
  private boolean attachmentEntry(String instance, String name) throws Exception {
    Path root = dir.resolve("attachments").resolve(instance);
    if (!Files.exists(root)) {
      return false;
    }
    try (var all = Files.walk(root)) {
      return all.anyMatch(p -> p.getFileName().toString().equals(name));
    }
  }

  private static java.util.stream.Stream<Path> regularFiles(Path root) throws Exception {
    if (!Files.exists(root)) {
      return java.util.stream.Stream.empty();
    }
    try (var all = Files.walk(root)) {
      return all.filter(Files::isRegularFile).toList().stream();
    }
  }

  @Test
  void uploadsUntil507WithTheNumbers_deleteOne_thenItFitsAgain() throws Exception {
    try (TetherServer server = start(1024 * KIB); RawHttp http = new RawHttp(server.boundAddress())) {
      assertTrue(server.describeLimits().contains("disk per instance 1 MiB"), server.describeLimits());
      int stored = 0;
      RawHttp.Reply full = null;
      for (int i = 0; i < 10 && full == null; i++) {
        RawHttp.Reply r = upload(http, "vm1", "f" + i + ".bin", 300 * KIB, HOST);
        if (r.status() == 201) {
          stored++;
        } else {
          full = r;
        }
      }
      assertEquals(3, stored, "three of 300 KiB fit in 1 MiB, a fourth does not");
      assertEquals(507, full.status(), full.body());
      assertEquals("INSUFFICIENT_STORAGE", full.errorCode());
      long used = usedOnDisk("vm1");
      String message = full.json().path("error").path("message").asText();
      assertTrue(message.contains(used + " bytes") && message.contains(300 * KIB + " bytes") && message.contains(1024 * KIB + " bytes"),
          "names the bytes in use (" + used + "), the upload and the budget: " + message);
      assertTrue(attachmentEntry("vm1", "f2.bin"), "the stored ones are where this test looks");
      assertFalse(attachmentEntry("vm1", "f3.bin"), "nothing of the refused upload was written");
      // Blobs count against the same budget.
      byte[] png = EgressDownloadsHttpTest.noisyPng(300, 1);
      RawHttp.Reply blob = http.send("POST", "/v1/instances/vm1/blob", "image/png", png, HOST);
      assertEquals(507, blob.status(), blob.body());
      // Another instance has its own budget.
      assertEquals(201, upload(http, "vm2", "x.bin", 300 * KIB, HOST).status());

      RawHttp.Reply deleted = http.send("DELETE", "/v1/instances/vm1/attachments/f1.bin?session_id=s", null, null, HOST);
      assertEquals(200, deleted.status(), deleted.body());
      assertEquals("f1.bin", deleted.json().path("name").asText());
      assertTrue(deleted.json().path("deleted").asBoolean());
      assertEquals(201, upload(http, "vm1", "again.bin", 300 * KIB, HOST).status(), "the freed room is usable");
      assertTrue(usedOnDisk("vm1") <= 1024 * KIB, "never over the budget: " + usedOnDisk("vm1"));
    }
  }

  @Test
  void concurrentUploadsToOneInstance_neverPassTheBudgetTogether() throws Exception {
    try (TetherServer server = start(1024 * KIB); RawHttp http = new RawHttp(server.boundAddress())) {
      List<CompletableFuture<RawHttp.Reply>> all = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        String name = "c" + i + ".bin";
        all.add(CompletableFuture.supplyAsync(() -> {
          try {
            return upload(http, "vm1", name, 200 * KIB, HOST);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }));
      }
      int ok = 0;
      for (CompletableFuture<RawHttp.Reply> f : all) {
        RawHttp.Reply r = f.get(60, TimeUnit.SECONDS);
        assertTrue(r.status() == 201 || r.status() == 507, r.status() + " " + r.body());
        ok += r.status() == 201 ? 1 : 0;
      }
      assertEquals(5, ok, "5 x 200 KiB and their manifest fit in 1 MiB, a sixth never does");
      assertTrue(usedOnDisk("vm1") <= 1024 * KIB, "never over the budget: " + usedOnDisk("vm1"));
    }
  }

  @Test
  void deleteAttachment_unknownIs404_otherInstancesTokenRefused_ownTokenAllowed_andTheListingShowsItGone() throws Exception {
    try (TetherServer server = start(0); RawHttp http = new RawHttp(server.boundAddress())) {
      assertTrue(server.describeLimits().contains("disk per instance unlimited"), server.describeLimits());
      String vm1 = "Bearer " + mint(http, "vm1");
      String vm2 = "Bearer " + mint(http, "vm2");
      assertEquals(201, upload(http, "vm1", "a.txt", 10, vm1).status());
      assertEquals(201, upload(http, "vm1", "b.txt", 10, vm1).status());

      RawHttp.Reply unknown = http.send("DELETE", "/v1/instances/vm1/attachments/nope.txt?session_id=s", null, null, vm1);
      assertEquals(404, unknown.status());
      assertEquals("UNKNOWN_ATTACHMENT", unknown.errorCode());
      RawHttp.Reply noSession = http.send("DELETE", "/v1/instances/vm1/attachments/a.txt?session_id=other", null, null, vm1);
      assertEquals(404, noSession.status(), "another session's name is unknown here");
      assertTrue(attachmentEntry("vm1", "host~s"), "the session directory is where this test looks");
      assertFalse(attachmentEntry("vm1", "host~other"), "no directory is made for a delete");
      RawHttp.Reply theirs = http.send("DELETE", "/v1/instances/vm1/attachments/a.txt?session_id=s", null, null, vm2);
      assertEquals(403, theirs.status());
      assertEquals("PERMISSION_DENIED", theirs.errorCode());

      assertEquals(200, http.send("DELETE", "/v1/instances/vm1/attachments/a.txt?session_id=s", null, null, vm1).status());
      var list = http.get("/v1/instances/vm1/attachments?session_id=s", vm1).json().path("attachments");
      assertEquals(1, list.size());
      assertEquals("b.txt", list.get(0).path("name").asText());
      assertTrue(attachmentEntry("vm1", "b.txt"), "the other file stays");
      assertFalse(attachmentEntry("vm1", "a.txt"), "the file is gone");
      assertEquals(404, http.get("/v1/instances/vm1/attachments/a.txt?session_id=s", vm1).status());
      assertEquals(404, http.send("DELETE", "/v1/instances/vm1/attachments/a.txt?session_id=s", null, null, vm1).status(),
          "a second delete finds nothing");
      RawHttp.Reply put = http.send("PUT", "/v1/instances/vm1/attachments/b.txt?session_id=s", null, null, HOST);
      assertEquals(405, put.status());
    }
  }

  private static String mint(RawHttp http, String instance) throws Exception {
    RawHttp.Reply r = http.send("POST", "/v1/tokens", "application/json",
        ("{\"instance\":\"" + instance + "\"}").getBytes(StandardCharsets.UTF_8), HOST);
    assertEquals(201, r.status(), r.body());
    return r.json().get("token").asText();
  }
}
