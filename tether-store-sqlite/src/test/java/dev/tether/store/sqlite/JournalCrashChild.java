package dev.tether.store.sqlite;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The process {@link JournalCrashTest} kills: opens the journal given as the first argument and
 * appends from two threads until killed, printing {@code <seq> <tag>} after each acknowledged
 * append. A test fixture, not part of the library (which never writes to stdout).
 */
public final class JournalCrashChild {
  private JournalCrashChild() {}

  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    String run = args[1];
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true);
    DurableTetherStore store = DurableTetherStore.builder(file)
        .retention(JournalCrashTest.RETENTION).open();
    out.println("ready " + store.lastSeq("vm"));
    Thread[] threads = new Thread[2];
    for (int t = 0; t < threads.length; t++) {
      int id = t;
      threads[t] = new Thread(() -> {
        for (int i = 0; i < 1_000_000; i++) {
          String tag = run + "-" + id + "-" + i;
          Frame f = Frame.builder("assistant.done").session(SessionKey.host("s" + id))
              .payload(RawJson.of("{\"text\":\"" + tag + "\"}")).build();
          long seq = store.append("vm", f);
          synchronized (out) {
            out.println(seq + " " + tag);
          }
        }
      });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
  }
}
