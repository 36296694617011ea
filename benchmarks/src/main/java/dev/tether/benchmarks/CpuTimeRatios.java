package dev.tether.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * The image-path benchmarks' ratios to their floors in thread CPU time, for a machine too loaded
 * for JMH's wall-clock scores (other processes' time slices fall inside a wall-clock measurement,
 * not inside this thread's CPU time). Each path and its floor run alternately in one JVM, after a
 * warm-up; the median CPU time per operation of each is printed with the ratio. Garbage collection
 * runs on other threads and is not counted (path and floor allocate alike: see {@code -prof gc}).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.tether.benchmarks.CpuTimeRatios [warmup] [rounds]
 * </pre>
 */
public final class CpuTimeRatios {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private CpuTimeRatios() {}

  public static void main(String[] args) throws Exception {
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    System.out.println("java " + System.getProperty("java.version") + ", warm-up " + warmup + ", rounds " + rounds);
    for (String provider : new String[] {"claude", "openai", "gemini"}) {
      ProviderRequestBenchmark b = new ProviderRequestBenchmark();
      b.provider = provider;
      b.setUp();
      compare("provider " + provider, warmup, rounds, b::frameToRequestFloor, b::frameToRequest, b::frameToRequestUnproven);
    }
    McpReadBenchmark mcp = new McpReadBenchmark();
    mcp.setUp();
    compare("tether_read", warmup, rounds, mcp::toContentFloor, mcp::toContent, mcp::toContentUnproven);
    TelegramPhotoBenchmark telegram = new TelegramPhotoBenchmark();
    telegram.setUp();
    compare("telegram", warmup, rounds, telegram::answerToUploadsFloor, telegram::answerToUploads,
        telegram::answerToUploadsUnproven);
  }

  private static void compare(String name, int warmup, int rounds, Callable<?> floor, Callable<?> proven,
      Callable<?> unproven) throws Exception {
    long[][] times = new long[3][rounds];
    Callable<?>[] calls = {floor, proven, unproven};
    for (int i = 0; i < warmup; i++) {
      for (Callable<?> c : calls) {
        c.call();
      }
    }
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < calls.length; k++) {
        long start = THREADS.getCurrentThreadCpuTime();
        Object result = calls[k].call();
        times[k][r] = THREADS.getCurrentThreadCpuTime() - start;
        if (result == null) {
          throw new IllegalStateException(name + " returned nothing");
        }
      }
    }
    double f = median(times[0]);
    double p = median(times[1]);
    double u = median(times[2]);
    System.out.printf(Locale.ROOT, "%-16s floor %8.2f ms  validated-once %8.2f ms (%5.2fx)  unproven %8.2f ms (%5.2fx)%n",
        name, f / 1e6, p / 1e6, p / f, u / 1e6, u / f);
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
