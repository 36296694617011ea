package dev.tether.cli;

import dev.tether.server.testing.Fixtures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.images.Images;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class DemoReplierTest {
  private final DemoReplier replier = new DemoReplier();

  @Test
  void describesEachImage_formatPixelsAndBytes() throws Exception {
    Image png = Fixtures.png(31, 17);
    Image jpeg = Fixtures.jpeg(200, 100);
    Image gif = Images.fromBytes(Fixtures.picture("gif", 7, 9), MediaType.GIF);
    List<String> deltas = new ArrayList<>();
    Replier.Reply r = replier.reply(List.of(), Payload.UserMessage.of("", List.of(png, jpeg, gif)), deltas::add, () -> false);
    assertTrue(r.text().contains(String.format("image 1: PNG, 31x17 pixels, %,d bytes", png.decodedSize())), r.text());
    assertTrue(r.text().contains(String.format("image 2: JPEG, 200x100 pixels, %,d bytes", jpeg.decodedSize())), r.text());
    assertTrue(r.text().contains(String.format("image 3: GIF, 7x9 pixels, %,d bytes", gif.decodedSize())), r.text());
    assertEquals(r.text(), String.join("", deltas));
    assertTrue(r.images().isEmpty());
  }

  @Test
  void aCorruptHeader_isReportedNotThrown() {
    // A valid PNG signature followed by garbage: the validator accepts the signature, the header reader cannot size it.
    byte[] bytes = new byte[40];
    System.arraycopy(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, 0, bytes, 0, 8);
    Image broken = new Image(MediaType.PNG, Base64.getEncoder().encodeToString(bytes));
    String line = ImageDescriber.describe(0, broken);
    assertTrue(line.startsWith("image 1: PNG, unknown pixel size"), line);
    assertTrue(line.endsWith("40 bytes"), line);
  }

  @Test
  void chartRequest_returnsAPngOfTheNumbers() throws Exception {
    Replier.Reply r = replier.reply(List.of(), Payload.UserMessage.of("plot 5 and 10", List.of()), d -> { }, () -> false);
    assertEquals(1, r.images().size());
    BufferedImage img = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(r.images().get(0).data())));
    assertEquals(ChartPainter.WIDTH, img.getWidth());
    assertEquals(ChartPainter.HEIGHT, img.getHeight());
    assertTrue(r.text().contains("bar chart of 2 values"), r.text());
  }

  @Test
  void chartWords_areWholeWordsAnyCase() {
    assertTrue(ChartPainter.wantsChart("Draw a CHART please"));
    assertTrue(ChartPainter.wantsChart("graph it"));
    assertFalse(ChartPainter.wantsChart("chartreuse plotter"));
    assertEquals(ChartPainter.SAMPLE, ChartPainter.values("a chart"));
    assertEquals(List.of(-1.5, 2.0, 30.0), ChartPainter.values("chart -1.5, 2 and 30"));
  }

  @Test
  void chart_isDeterministic_andAlwaysAValidPng() {
    qt().withExamples(40).forAll(lists().of(integers().between(-1000, 1000)).ofSizeBetween(1, 24)).checkAssert(ints -> {
      List<Double> values = ints.stream().map(Integer::doubleValue).toList();
      byte[] a = ChartPainter.png("t", values);
      byte[] b = ChartPainter.png("t", values);
      assertTrue(java.util.Arrays.equals(a, b));
      Images.fromBytes(a, MediaType.PNG); // signature and limits hold
    });
  }

  @Test
  void cancelledBeforeStart_sendsNothingAndNoChart() {
    List<String> deltas = new ArrayList<>();
    Replier.Reply r = replier.reply(List.of(), Payload.UserMessage.of("chart", List.of()), deltas::add, () -> true);
    assertTrue(deltas.isEmpty());
    assertTrue(r.images().isEmpty());
  }
}
