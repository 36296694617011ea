package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tether.client.HostAddress;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31, High 1 and 2, against a real {@code serve} with an instance token, as the guest that
 * shares the workspace would attack it:
 *
 * <ul>
 *   <li>a child process swaps {@code .aegis/blobs} and the old attachment session directory
 *       {@code .aegis/attachments/host~s} with symbolic links to a directory outside every
 *       workspace, with {@code renameat2(RENAME_EXCHANGE)} (at least 2,000 swaps, bounded in time),
 *       while the test GETs and POSTs blobs, frames with blob refs and attachments: no byte of the
 *       outside directory is ever served or accepted, and nothing is created in it;
 *   <li>FIFOs planted at a blob's path and where the old attachment manifest was: 40 concurrent
 *       GETs of each answer within seconds and {@code /v1/health} stays up.
 * </ul>
 */
class WorkspaceRaceServeTest {
  private static final String SWAPPER = """
      import ctypes, os, sys, time
      libc = ctypes.CDLL(None, use_errno=True)
      AT_FDCWD, RENAME_EXCHANGE = -100, 2
      seconds, min_swaps = float(sys.argv[1]), int(sys.argv[2])
      pairs = [(sys.argv[i].encode(), sys.argv[i + 1].encode()) for i in range(3, len(sys.argv), 2)]
      def swap():
          for a, b in pairs:
              if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
                  print("renameat2: " + os.strerror(ctypes.get_errno()), file=sys.stderr)
                  sys.exit(3)
      start, n = time.monotonic(), 0
      while n < 10_000_000 and (time.monotonic() - start < seconds or n < min_swaps):
          swap()
          n += 1
          if n % 64 == 0:
              time.sleep(0.0005)  # let the daemon's threads run between bursts
      if n % 2:
          swap()
          n += 1
      print(n)
      """;

  @TempDir Path dir;

  @Test
  void swapRace_neverReadsNorWritesOutsideTheWorkspace() throws Exception {
    Path outside = Files.createDirectories(dir.resolve("outside"));
    byte[] secretPng = Fixtures.picture("png", 7, 3);
    String secretKey = sha256(secretPng) + ".png";
    Files.write(outside.resolve(secretKey), secretPng);
    Files.writeString(outside.resolve("secret.txt"), "TOP-SECRET");
    Files.writeString(outside.resolve(".manifest.json"), "{\"version\":1,\"attachments\":[{\"file_name\":\"secret.txt\","
        + "\"mime_type\":\"text/plain\",\"size\":10,\"added_at\":\"2026-01-01T00:00:00Z\"}]}");
    Map<String, byte[]> before = snapshot(outside);

    try (Serve serve = Serve.start(dir)) {
      Path aegis = Files.createDirectories(serve.workspace.resolve(".aegis"));
      Path blobs = Files.createDirectories(aegis.resolve("blobs"));
      Path blobLink = Files.createSymbolicLink(aegis.resolve("blobs-swap"), outside);
      Path session = Files.createDirectories(aegis.resolve("attachments/host~s"));
      Path sessionLink = Files.createSymbolicLink(aegis.resolve("attachments/swap"), outside);
      byte[] mine = Fixtures.picture("png", 5, 5);
      String frameWithSecretRef = "{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},"
          + "\"payload\":{\"text\":\"x\",\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + secretKey + "\",\"size\":"
          + secretPng.length + "}]}}";

      Path script = Files.writeString(dir.resolve("swap.py"), SWAPPER);
      Process swapper = new ProcessBuilder("python3", script.toString(), "8", "2000",
          blobs.toString(), blobLink.toString(), session.toString(), sessionLink.toString())
          .redirectError(dir.resolve("swap.err").toFile()).redirectOutput(dir.resolve("swap.out").toFile()).start();

      ConcurrentLinkedQueue<String> leaks = new ConcurrentLinkedQueue<>();
      AtomicInteger requests = new AtomicInteger();
      AtomicBoolean racing = new AtomicBoolean(true);
      ExecutorService pool = Executors.newFixedThreadPool(6);
      List<Future<?>> clients = new ArrayList<>();
      for (int t = 0; t < 6; t++) {
        int kind = t % 3;
        clients.add(pool.submit(() -> {
          while (racing.get()) {
            RawHttp.Reply r;
            switch (kind) {
              case 0 -> {
                r = serve.http.get("/v1/instances/vm1/blob/" + secretKey, serve.bearer);
                if (r.status() == 200 || contains(r.bytes(), secretPng)) {
                  leaks.add("GET blob read the outside file: " + r.status());
                }
                r = serve.http.send("POST", "/v1/instances/vm1/blob", "image/png", mine, serve.bearer);
              }
              case 1 -> {
                r = serve.http.send("POST", "/v1/instances/vm1/tether", "application/json",
                    frameWithSecretRef.getBytes(StandardCharsets.UTF_8), serve.bearer);
                if (r.status() == 202) {
                  leaks.add("a frame referring to the outside blob was accepted");
                }
              }
              default -> {
                r = serve.http.get("/v1/instances/vm1/attachments?session_id=s", serve.bearer);
                if (r.body().contains("secret.txt")) {
                  leaks.add("the outside manifest was listed: " + r.body());
                }
                r = serve.http.get("/v1/instances/vm1/attachments/secret.txt?session_id=s", serve.bearer);
                if (r.status() == 200 || r.body().contains("TOP-SECRET")) {
                  leaks.add("the outside attachment was served");
                }
                r = serve.http.send("POST", "/v1/instances/vm1/attachments?session_id=s&name=up.txt", "text/plain",
                    "mine".getBytes(StandardCharsets.UTF_8), serve.bearer);
              }
            }
            if (r.status() >= 500) {
              leaks.add("a 5xx answer: " + r.status() + " " + r.body());
            }
            requests.incrementAndGet();
          }
          return null;
        }));
      }
      boolean finished = swapper.waitFor(40, TimeUnit.SECONDS);
      racing.set(false);
      for (Future<?> c : clients) {
        c.get(30, TimeUnit.SECONDS);
      }
      pool.shutdownNow();
      if (!finished) {
        swapper.destroyForcibly();
      }
      assertTrue(finished, "the swapper ends on its own within 40 s");
      String err = Files.readString(dir.resolve("swap.err"));
      assumeTrue(swapper.exitValue() != 3, "renameat2(RENAME_EXCHANGE) works on this file system: " + err);
      assertEquals(0, swapper.exitValue(), err);
      int swaps = Integer.parseInt(Files.readString(dir.resolve("swap.out")).strip());
      System.out.println("WorkspaceRaceServeTest: " + swaps + " swaps, " + requests.get() + " requests");
      assertTrue(swaps >= 2000, "at least 2,000 swaps, was " + swaps);
      assertTrue(requests.get() >= 100, "requests raced the swaps: " + requests.get());
      assertEquals(List.of(), List.copyOf(leaks), "after " + swaps + " swaps and " + requests.get() + " requests");
      assertEquals(before.keySet(), snapshot(outside).keySet(), "nothing was created outside the workspace");
      before.forEach((name, bytes) -> assertArrayEquals(bytes, snapshot(outside).get(name), name + " unchanged"));
      assertEquals(200, serve.http.get("/v1/health", serve.bearer).status());
    }
  }

  @Test
  void fifosInTheWorkspace_answerWithinSeconds_andHealthStaysUp() throws Exception {
    try (Serve serve = Serve.start(dir)) {
      Path blobs = Files.createDirectories(serve.workspace.resolve(".aegis/blobs"));
      Path oldSession = Files.createDirectories(serve.workspace.resolve(".aegis/attachments/host~ff"));
      byte[] png = Fixtures.picture("png", 4, 4);
      String key = sha256(png) + ".png";
      mkfifo(blobs.resolve(key));
      mkfifo(oldSession.resolve(".manifest.json"));
      ExecutorService pool = Executors.newFixedThreadPool(80);
      try {
        long start = System.nanoTime();
        List<Future<RawHttp.Reply>> replies = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
          replies.add(pool.submit(() -> serve.http.get("/v1/instances/vm1/blob/" + key, serve.bearer)));
          replies.add(pool.submit(() -> serve.http.get("/v1/instances/vm1/attachments?session_id=ff", serve.bearer)));
        }
        for (Future<RawHttp.Reply> f : replies) {
          RawHttp.Reply r = f.get(10, TimeUnit.SECONDS);
          assertTrue(r.status() == 400 || r.status() == 200, r.status() + " " + r.body());
          if (r.status() == 400) {
            assertEquals("INVALID_BLOB_REF", r.errorCode(), r.body());
          } else {
            assertEquals("{\"attachments\":[]}", r.body().replaceAll("\\s", ""), "the workspace is not where attachments are");
          }
        }
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "80 answers within 10 s");
        assertEquals(200, serve.http.get("/v1/health", serve.bearer).status());
      } finally {
        pool.shutdownNow();
      }
    }
  }

  /** A child {@code serve} on loopback TCP with instance {@code vm1} and an instance token for it. */
  private record Serve(ChildJvm child, RawHttp http, String bearer, Path workspace) implements AutoCloseable {
    static Serve start(Path dir) throws Exception {
      Path root = Files.createDirectories(dir.resolve("roots"));
      Path tokenFile = dir.resolve("token");
      ChildJvm child = ChildJvm.start(dir, "serve", Map.of(), "serve", "--listen", "127.0.0.1:0", "--token-file",
          tokenFile.toString(), "--workspaces", root.toString(), "--data-dir", dir.resolve("data").toString(),
          "--instance", "vm1");
      try {
        Matcher m = child.awaitStderr("listening on http://127\\.0\\.0\\.1:(\\d+)", 60_000);
        RawHttp http = new RawHttp(new HostAddress.Tcp("127.0.0.1", Integer.parseInt(m.group(1))));
        String host = "Bearer " + Files.readString(tokenFile).strip();
        RawHttp.Reply minted = http.send("POST", "/v1/tokens", "application/json",
            "{\"instance\":\"vm1\"}".getBytes(StandardCharsets.UTF_8), host);
        assertEquals(201, minted.status(), minted.body());
        return new Serve(child, http, "Bearer " + minted.json().path("token").asText(), root.resolve("vm1"));
      } catch (Exception | AssertionError e) {
        child.close();
        throw e;
      }
    }

    @Override
    public void close() {
      http.close();
      child.close();
    }
  }

  private static void mkfifo(Path path) throws Exception {
    Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assumeTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "mkfifo works here");
  }

  private static Map<String, byte[]> snapshot(Path dir) {
    try (var files = Files.list(dir)) {
      Map<String, byte[]> out = new java.util.TreeMap<>();
      for (Path p : files.toList()) {
        out.put(p.getFileName().toString(), Files.isRegularFile(p) ? Files.readAllBytes(p) : new byte[0]);
      }
      return out;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static boolean contains(byte[] haystack, byte[] needle) {
    if (haystack == null) {
      return false;
    }
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
