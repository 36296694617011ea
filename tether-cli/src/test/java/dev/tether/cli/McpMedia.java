package dev.tether.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code list_media} through a {@code tether mcp} child, polled with a bounded wait. */
final class McpMedia {
  private McpMedia() {}

  /** Waits until {@code list_media} shows {@code count} refs starting with {@code prefix}; returns them in listed order. */
  static List<String> awaitRefs(McpSdkChild mcp, String prefix, int count, Duration wait) throws InterruptedException {
    Pattern ref = Pattern.compile("ref:(" + Pattern.quote(prefix) + "[A-Za-z0-9_-]+)");
    long end = System.nanoTime() + wait.toNanos();
    List<String> refs = new ArrayList<>();
    String text = "";
    while (System.nanoTime() < end) {
      text = McpSdkChild.text(mcp.call("list_media", Map.of()));
      refs.clear();
      Matcher m = ref.matcher(text);
      while (m.find()) {
        if (!refs.contains(m.group(1))) {
          refs.add(m.group(1));
        }
      }
      if (refs.size() >= count) {
        return refs;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("list_media did not show " + count + " " + prefix + " refs: " + text);
  }
}
