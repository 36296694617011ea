package dev.tether.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/** One scrape of a Prometheus text endpoint, and the values of its samples by name and labels. */
final class Scrape {
  private final String text;

  private Scrape(String text) {
    this.text = text;
  }

  static Scrape of(int port) throws IOException, InterruptedException {
    HttpResponse<String> r = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException("scrape answered " + r.statusCode() + ": " + r.body());
    }
    return new Scrape(r.body());
  }

  /**
   * The value of the one sample named {@code name} whose labels include every pair of {@code labels};
   * empty when none matches.
   *
   * @throws IllegalStateException when several match (the test named too few labels)
   */
  OptionalDouble value(String name, Map<String, String> labels) {
    List<Double> found = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.startsWith("#") || !(line.startsWith(name + "{") || line.startsWith(name + " "))) {
        continue;
      }
      String series = line.substring(0, line.lastIndexOf(' '));
      boolean all = labels.entrySet().stream().allMatch(e -> series.contains(e.getKey() + "=\"" + e.getValue() + "\""));
      if (all) {
        found.add(Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
      }
    }
    if (found.size() > 1) {
      throw new IllegalStateException(found.size() + " samples of " + name + labels + " in:\n" + text);
    }
    return found.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(found.get(0));
  }

  double require(String name, Map<String, String> labels) {
    return value(name, labels).orElseThrow(() -> new AssertionError("no sample " + name + labels + " in:\n" + text));
  }

  String text() {
    return text;
  }
}
