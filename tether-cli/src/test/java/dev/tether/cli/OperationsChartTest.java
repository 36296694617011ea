package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tether.client.HostAddress;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renews {@code docs/operations/scrape-chart.png}: a real {@code serve --metrics}, a load that
 * changes every interval, 24 scrapes, and the frames appended between two scrapes drawn as bars by
 * the demo agent's {@link ChartPainter}. Runs only with {@code -Doperations.chart=PATH} (it writes
 * that file); the sum of the bars must equal the frames sent, so a wrong meter fails it.
 */
class OperationsChartTest {
  @TempDir Path dir;

  @Test
  void scrapesUnderAChangingLoad_drawnAsAChart() throws Exception {
    String out = System.getProperty("operations.chart");
    assumeTrue(out != null, "set -Doperations.chart=PATH to draw the chart");
    Path sock = dir.resolve("c.sock");
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", sock.toString(),
            "--metrics", "127.0.0.1:0", "--workspaces", dir.resolve("ws").toString());
        RawHttp http = new RawHttp(new HostAddress.Unix(sock))) {
      int port = Integer.parseInt(serve.awaitStderr("metrics: http://127\\.0\\.0\\.1:(\\d+)/metrics", 60_000).group(1));
      serve.awaitStderr("listening on", 60_000);
      Map<String, String> labels = Map.of("instance", "default", "type", "user.message");
      double last = Scrape.of(port).value("tether_frames_appended_total", labels).orElse(0); // meters appear with the first frame
      List<Double> perInterval = new ArrayList<>();
      int sent = 0;
      for (int i = 0; i < 24; i++) {
        int burst = (int) Math.round(20 + 15 * Math.sin(i / 3.0) + (i % 5) * 3); // a changing load
        for (int j = 0; j < burst; j++) {
          http.post("/v1/instances/default/tether", Fixtures.wire(Fixtures.userMessage("s" + (j % 4), "m" + j)));
        }
        sent += burst;
        double now = Scrape.of(port).require("tether_frames_appended_total", labels);
        perInterval.add(now - last);
        last = now;
      }
      assertEquals(sent, perInterval.stream().mapToDouble(Double::doubleValue).sum(), "the bars add up to the frames sent");
      Files.write(Path.of(out), ChartPainter.png("Frames appended per scrape interval", perInterval));
    }
  }
}
