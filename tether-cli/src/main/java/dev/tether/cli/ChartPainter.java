package dev.tether.cli;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;

/**
 * Draws a bar chart as a PNG with Java2D, headless (no display needed). The values are the
 * numbers in the request's text, or a fixed sample when it has none, so the same request always
 * draws the same chart. Thread-safe (stateless).
 */
final class ChartPainter {
  static final int WIDTH = 640;
  static final int HEIGHT = 400;
  private static final Pattern NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?");
  private static final Pattern CHART_WORDS = Pattern.compile("\\b(chart|graph|plot)\\b", Pattern.CASE_INSENSITIVE);
  static final List<Double> SAMPLE = List.of(3.0, 7.0, 4.0, 9.0, 6.0);
  private static final int MAX_BARS = 24;

  private ChartPainter() {}

  /** Whether {@code text} asks for a chart (mentions chart, graph or plot). */
  static boolean wantsChart(String text) {
    return CHART_WORDS.matcher(text).find();
  }

  /** The values to draw for {@code text}: its numbers (at most 24), else the sample. */
  static List<Double> values(String text) {
    List<Double> values = new ArrayList<>();
    Matcher m = NUMBER.matcher(text);
    while (m.find() && values.size() < MAX_BARS) {
      values.add(Double.parseDouble(m.group()));
    }
    return values.isEmpty() ? SAMPLE : values;
  }

  /** A {@value #WIDTH}x{@value #HEIGHT} PNG bar chart of {@code values}. */
  static byte[] png(String title, List<Double> values) {
    System.setProperty("java.awt.headless", "true");
    BufferedImage img = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, WIDTH, HEIGHT);
      int left = 50;
      int right = WIDTH - 20;
      int top = 50;
      int bottom = HEIGHT - 40;
      double max = 0;
      double min = 0;
      for (double v : values) {
        max = Math.max(max, v);
        min = Math.min(min, v);
      }
      double span = max - min == 0 ? 1 : max - min;
      int zeroY = bottom - (int) Math.round((0 - min) / span * (bottom - top));
      g.setColor(Color.DARK_GRAY);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
      g.drawString(title, left, 30);
      g.setStroke(new BasicStroke(1f));
      g.drawLine(left, top, left, bottom);
      g.drawLine(left, zeroY, right, zeroY);
      int n = values.size();
      int slot = (right - left) / n;
      int bar = Math.max(2, slot * 2 / 3);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      for (int i = 0; i < n; i++) {
        double v = values.get(i);
        int y = bottom - (int) Math.round((v - min) / span * (bottom - top));
        int x = left + i * slot + (slot - bar) / 2;
        g.setColor(new Color(0x3b, 0x82, 0xf6));
        g.fillRect(x, Math.min(y, zeroY), bar, Math.abs(zeroY - y));
        g.setColor(Color.DARK_GRAY);
        String label = v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
        g.drawString(label, x, bottom + 15);
      }
    } finally {
      g.dispose();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
    try {
      ImageIO.write(img, "png", out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
