package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tether.api.ErrorCode;
import dev.tether.api.Limits;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.sessions.ConfinedDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Set;

/**
 * The names every file route takes from the wire, through the real routes onto real files: a blob
 * key ({@code GET .../blob/{key}}), an instance id (a directory of the attachment store, with its
 * generation) and an attachment name ({@code GET .../attachments/{name}}, {@code ?name=}). Whatever
 * the text, a route answers 404 or a 4xx {@link TetherException}, never another exception (which
 * would be a 500), and every name that reaches the file system is one plain component. The blob
 * directory holds a link to a real blob outside the workspace, which must never be served. In a
 * normal {@code mvn test} Jazzer replays the seeds; run with {@code JAZZER_FUZZ=1} to fuzz.
 */
class FileRoutesFuzzTest {
  private static final Set<ErrorCode> REFUSALS = Set.of(ErrorCode.INVALID_BLOB_REF, ErrorCode.BLOB_NOT_FOUND,
      ErrorCode.INVALID_ARGUMENT, ErrorCode.UNKNOWN_ATTACHMENT);
  private static final Path TMP;
  private static final InstanceRegistry.Entry VM;
  private static final Blobs BLOBS = new Blobs(null, Limits.defaults());
  private static final AttachmentStore ATTACHMENTS;

  static {
    try {
      TMP = Files.createTempDirectory("file-routes-fuzz-");
      Path workspace = Files.createDirectories(TMP.resolve("ws/vm1"));
      Path blobs = Files.createDirectories(workspace.resolve(".aegis/blobs"));
      Path outside = Files.createDirectories(TMP.resolve("outside"));
      byte[] png = dev.tether.server.testing.Fixtures.picture("png", 3, 3);
      String key = BlobFiles.sha256Hex(png) + ".png";
      Files.write(outside.resolve(key), png);
      Files.createSymbolicLink(blobs.resolve(key), outside.resolve(key));
      Files.createSymbolicLink(blobs.resolve("c".repeat(64) + ".png"), outside.resolve(key));
      VM = new InstanceRegistry.Entry("vm1", workspace, Instant.parse("2026-11-27T00:00:00.123456789Z"));
      ATTACHMENTS = AttachmentStore.inDirectory(TMP.resolve("attachments"), 1024);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static final ByteBudget EGRESS = new ByteBudget(64L << 20);

  @FuzzTest(maxDuration = "30s", maxExecutions = 100_000)
  void blobKeyInstanceIdAndAttachmentName_areOneComponentOrRefused(FuzzedDataProvider data) throws IOException {
    String key = data.consumeString(120);
    String id = data.consumeString(140);
    long seconds = data.consumeLong(-1L << 40, 1L << 40);
    String name = data.consumeRemainingAsString();

    try {
      BlobRoutes.Download d = BlobRoutes.download(BLOBS, VM, key, EGRESS);
      assertEquals(404, d.reply().status(), "only links and nothing else are in the blob directory: " + key);
      assertEquals(0, d.reserved(), "a refusal holds no egress");
    } catch (TetherException e) {
      assertTrue(REFUSALS.contains(e.code()), e.code() + ": " + e.getMessage());
    }

    try {
      String ok = InstanceRegistry.requireId(id);
      assertTrue(ConfinedDirectory.isComponent(ok), ok);
      InstanceRegistry.Entry entry = new InstanceRegistry.Entry(ok, VM.workspace(), Instant.ofEpochSecond(seconds, 7));
      String generation = AttachmentStore.generation(entry);
      assertTrue(ConfinedDirectory.isComponent(generation) && !generation.startsWith("."), generation);
    } catch (IllegalArgumentException e) {
      // not an instance id: refused before any directory is named
    }

    try {
      String upload = AttachmentRoutes.uploadName(name);
      SessionKey session = AttachmentRoutes.session(null, name.isEmpty() ? "s" : name);
      ATTACHMENTS.find(VM, session, upload);
      throw new AssertionError("an empty store found '" + upload + "'");
    } catch (TetherException e) {
      assertTrue(REFUSALS.contains(e.code()), e.code() + ": " + e.getMessage());
    }
  }
}
