package dev.tether.sessions;

import static dev.tether.api.testing.QtGens.anyOf;
import static dev.tether.api.testing.QtGens.chars;
import static dev.tether.api.testing.QtGens.charsOf;
import static dev.tether.api.testing.QtGens.strings;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyedFilesTest {
  private static final Pattern FILE_NAME = Pattern.compile("[0-9a-f]{64}\\.json");

  @TempDir Path root;

  @Test
  void anyKey_howeverHostile_namesOneFileDirectlyInTheDirectory() throws Exception {
    KeyedFiles files = KeyedFiles.open(root.resolve("memories"));
    qt().withExamples(300).forAll(strings(anyOf(charsOf("./\\\u0000:%~ \n*?"), chars('a', 'c'), chars('\ud800', '\ud801')), 0, 300))
        .check(key -> {
          Path file = files.file(key);
          return file.getParent().equals(root.resolve("memories")) && FILE_NAME.matcher(file.getFileName().toString()).matches();
        });
  }

  @Test
  void write_read_delete_roundTrip_andAbsentKeysReadEmpty() throws Exception {
    KeyedFiles files = KeyedFiles.open(root.resolve("m"));
    assertEquals(Optional.empty(), files.read("../../etc/passwd"));

    files.write("../../etc/passwd", "one".getBytes(StandardCharsets.UTF_8));
    files.write("../../etc/passwd", "two".getBytes(StandardCharsets.UTF_8));
    assertArrayEquals("two".getBytes(StandardCharsets.UTF_8), files.read("../../etc/passwd").orElseThrow());
    assertEquals(1, count(root.resolve("m")), "one file per key, no temp file left");

    files.delete("../../etc/passwd");
    files.delete("../../etc/passwd"); // nothing to do
    assertEquals(Optional.empty(), files.read("../../etc/passwd"));
    assertEquals(0, count(root.resolve("m")));
  }

  @Test
  void concurrentWriters_leaveEveryDocumentWhole_andForEachSeesEachOnce() throws Exception {
    KeyedFiles files = KeyedFiles.open(root);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int writer = t;
      done.add(pool.submit(() -> {
        start.await();
        for (int i = 0; i < 50; i++) {
          files.write("key-" + (i % 5), ("writer " + writer + " round " + i).repeat(100).getBytes(StandardCharsets.UTF_8));
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> f : done) {
      f.get(30, TimeUnit.SECONDS);
    }
    pool.shutdown();

    List<String> documents = new ArrayList<>();
    files.forEach(d -> documents.add(new String(d, StandardCharsets.UTF_8)));
    assertEquals(5, documents.size());
    for (String d : documents) {
      String first = d.substring(0, d.length() / 100);
      assertEquals(first.repeat(100), d, "a whole document from one writer");
    }
    assertTrue(Files.isDirectory(root));
  }

  private static long count(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.count();
    }
  }
}
