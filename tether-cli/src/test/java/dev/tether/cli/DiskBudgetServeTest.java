package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.SessionKey;
import dev.tether.client.AttachmentInfo;
import dev.tether.client.HostAddress;
import dev.tether.client.http.HttpTetherClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31's disk finding against a real {@code serve --instance-disk-bytes 50MiB}: one client
 * stored 15 x 20 MiB attachments, every one 201. Now the budget is printed at start, the third
 * 20 MiB upload gets 507 INSUFFICIENT_STORAGE naming the bytes in use, the upload and the budget,
 * and after {@code deleteAttachment} (DELETE .../attachments/{name}) the same upload fits.
 */
class DiskBudgetServeTest {
  private static final int SIZE = 20 << 20;

  @TempDir Path dir;

  @Test
  void uploadsUntil507WithTheNumbers_deleteOne_thenTheUploadFits() throws Exception {
    Path socket = dir.resolve("t.sock");
    HostAddress.Unix address = new HostAddress.Unix(socket);
    SessionKey session = SessionKey.host("s");
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--instance", "vm1",
        "--workspaces", dir.resolve("ws").toString(), "--instance-disk-bytes", "50MiB");
        HttpTetherClient client = HttpTetherClient.builder(address).build()) {
      serve.awaitStderr("listening on", 60_000);
      assertTrue(serve.stderrText().contains("disk per instance 50 MiB"), "the budget is printed with the limits: " + serve.stderrText());
      AttachmentInfo first = client.putAttachment("vm1", session, "a.bin", null, new byte[SIZE]).get(60, TimeUnit.SECONDS);
      client.putAttachment("vm1", session, "b.bin", null, new byte[SIZE]).get(60, TimeUnit.SECONDS);
      ExecutionException full = assertThrows(ExecutionException.class,
          () -> client.putAttachment("vm1", session, "c.bin", null, new byte[SIZE]).get(60, TimeUnit.SECONDS));
      // A host-side code (retryable once room is made) arrives as an IOException, as STORE_FULL does.
      java.io.IOException e = assertInstanceOf(java.io.IOException.class, full.getCause());
      assertTrue(e.getMessage().startsWith("507 INSUFFICIENT_STORAGE"), e.getMessage());
      for (String number : new String[] {"upload of " + SIZE + " bytes", "budget of " + (50L << 20) + " bytes", "keeps "}) {
        assertTrue(e.getMessage().contains(number), "'" + number + "' in: " + e.getMessage());
      }
      java.util.regex.Matcher used = java.util.regex.Pattern.compile("keeps (\\d+) bytes").matcher(e.getMessage());
      assertTrue(used.find(), e.getMessage());
      long inUse = Long.parseLong(used.group(1));
      assertTrue(inUse >= 2L * SIZE && inUse < 2L * SIZE + 4096, "two files and their manifest in use: " + e.getMessage());

      client.deleteAttachment("vm1", session, first.name()).get(30, TimeUnit.SECONDS);
      AttachmentInfo third = client.putAttachment("vm1", session, "c.bin", null, new byte[SIZE]).get(60, TimeUnit.SECONDS);
      assertEquals(List.of("b.bin", "c.bin"), client.attachments("vm1", session).get(30, TimeUnit.SECONDS).stream()
          .map(AttachmentInfo::name).toList());
      assertEquals(SIZE, third.size());
    }
  }
}
